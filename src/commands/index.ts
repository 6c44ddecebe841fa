/** The public surface of src/commands/ for other folders: imports from outside go through this file. */
export { registerAnonymizeCommand } from './anonymize.js';
export { registerCalibrateCommand } from './calibrate.js';
export { registerConfigCommand } from './config.js';
export { defaultContext, type CommandContext } from './context.js';
export { registerDemoCommand } from './demo.js';
export { registerDoctorCommand } from './doctor.js';
export { registerEvaluateCommand } from './evaluate.js';
export { registerExperimentCommand } from './experiment.js';
export { registerExtractCommand } from './extract.js';
export { registerGoldenCommand } from './golden.js';
export { registerRetryDeadCommand } from './retry-dead.js';
export { registerRunCommand } from './run.js';
export { registerSampleCommand } from './sample.js';
export { registerStateCommand } from './state.js';
export { registerStatusCommand } from './status.js';
