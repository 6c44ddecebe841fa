import { kindOf } from '../errors.js';
import type { Logger } from '../runtime/index.js';
import type { StateStore } from '../state/index.js';
import { ONLINE_JOB } from '../online/index.js';
import { restoreJobSuccess, type ServiceMetrics } from './metrics.js';

/**
 * With shared state (PostgreSQL, several replicas) the figures a team alerts on belong to the fleet, not to
 * the replica that happened to compute them: the online means of the last listing run, the weekly run's verdict
 * and scores, the calibration figures, the online job's last success. They are in the state; a scrape reads them
 * there first (at most once per `maxAgeMs`), so every replica exports the same values and a rule may aggregate
 * the replicas away. The ledger gauges are not refreshed: only the replica that listed last exports them, so a
 * sum over replicas counts each trace once.
 *
 * A state that does not answer keeps the last values (readiness reports the state problem).
 */
export function fleetGaugeRefresher(
  state: Pick<StateStore, 'getGauges' | 'getJobRun'>,
  metrics: ServiceMetrics,
  options: { now: () => number; logger: Logger; maxAgeMs?: number },
): () => Promise<void> {
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  let readAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | null = null;
  const read = async () => {
    try {
      metrics.restoreGauges(await state.getGauges());
      restoreJobSuccess(metrics, ONLINE_JOB, (await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ?? null);
      readAt = options.now();
    } catch (err) {
      options.logger.debug({ kind: kindOf(err) }, 'fleet gauges: state not read; serving the last values');
    }
  };
  return async () => {
    if (options.now() - readAt < maxAgeMs) return;
    inFlight ??= read().finally(() => (inFlight = null));
    await inFlight;
  };
}
