/** The public surface of src/service/ for other folders: imports from outside go through this file. */
export { EXPERIMENT_JOB, startDaemon } from './daemon.js';
export { credentialsLine } from './dependency-health.js';
export { isDaemonLease } from './daemon-lease.js';
export { listenErrorProblem, listenHostProblem, type HostLookup } from './listen-host.js';
export {
  credentialsExit,
  openStateOrExit,
  startupFailureExit,
  stateFailureExit,
  stopSignals,
  withStatePathFrom,
} from './startup.js';
