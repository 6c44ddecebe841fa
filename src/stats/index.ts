export { normalCdf, normalQuantile, criticalZ } from './normal.js';
export { wilsonInterval, proportionInterval, unseenShare, type Interval } from './proportion.js';
export {
  meanInterval,
  MIN_BOOTSTRAP_N,
  type MeanInterval,
  type MeanIntervalMethod,
  type MeanIntervalOptions,
} from './mean-interval.js';
