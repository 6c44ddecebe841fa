/**
 * The items a run finished, as the rest of the run sees them. An outage is never charged to items: those that
 * failed on the dependency before it counted as down are not run. More failed items than
 * `experiment.maxFailedShare` allows make the run incomplete.
 */
import type { Dependency } from './errors.js';
import { isOutageKind } from '../errors.js';
import type { CleanResult } from './passes.js';
import { itemFailures, RAG_SERVICE, summarizeFailures } from './report/failures.js';
import type { RunStatus } from './run-status.js';

export function finishedItems(
  clean: ReadonlyArray<CleanResult | undefined>,
  status: RunStatus,
  maxFailedShare: number,
): CleanResult[] {
  const stop = status.stop;
  const kept = (c: CleanResult | undefined): c is CleanResult =>
    c !== undefined && !(stop && outageVictim(c, stop.dependency));
  const finished = clean.filter(kept);
  const failures = summarizeFailures(
    finished.map((c) => c.outcome),
    maxFailedShare,
  );
  if (!stop && failures.share > maxFailedShare) {
    const count = `${failures.items} of ${finished.length} items`;
    status.tooManyFailed(`${count} failed after retries, more than experiment.maxFailedShare (${maxFailedShare})`);
  }
  return finished;
}

/**
 * Whether an item's failures came from the outage that stopped the run; its noise result is dropped when only
 * the outage made it fail.
 */
function outageVictim(c: CleanResult, dependency: Dependency | null): boolean {
  if (dependency !== 'rag' && dependency !== 'judge') return false;
  const o = c.outcome;
  if (o.noiseFailure !== undefined && isOutageKind(o.noiseFailure)) {
    delete o.noiseFailure;
    delete o.noisyFaithfulness;
  }
  if (dependency === 'rag') return o.targetErrorKind !== undefined && isOutageKind(o.targetErrorKind);
  return itemFailures(o).some((f) => f.what !== RAG_SERVICE && isOutageKind(f.kind));
}
