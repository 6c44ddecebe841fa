/**
 * Private building blocks of ragwatch (as in openai-node's `internal/`): not part of any public surface, used by
 * the clients of every dependency. One retry policy, one sleep, one concurrency limiter, one HTTP transport, cron
 * schedules.
 */
export { Limiter, mapLimited } from './limiter.js';
export {
  attemptsWithin,
  backoffs,
  parseRetryAfter,
  retry,
  retryDelay,
  RetryAbortedError,
  type Backoff,
  type RetryContext,
  type RetryOptions,
  type RetryPolicy,
} from './retry.js';
export { sleep, type Sleep } from './sleep.js';
export { createKeepAliveFetch, type KeepAliveFetchOptions } from './transport.js';
export { BufferedResponse } from './buffered-response.js';
export { CronSchedule, localTimeInstants, nextCronRun, type LocalParts } from './cron.js';
export { isHashedTraceName, isIdentifierName, traceNameKey, traceNameKeySql } from './trace-name.js';
export { controlFree, withoutControls } from './terminal-text.js';
export { markdownCell, markdownText } from './markdown-text.js';
