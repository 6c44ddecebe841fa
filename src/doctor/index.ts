/** The public surface of src/doctor/ for other folders: imports from outside go through this file. */
export { checkExperiment } from './experiment.js';
export { checkEmbeddings, checkJudgeModel, checkStructuredOutput } from './judge.js';
export { describeError, type Check, type DoctorDeps, type Verdict } from './types.js';
