import type { Logger } from '../runtime/index.js';
import type { LeaseHolder, Leases } from '../state/index.js';
import { isStateError } from '../state/index.js';

/** How long the liveness lease lasts unless renewed; it is renewed every third of that. */
export const DAEMON_LEASE_TTL_MS = 60_000;

/** The liveness lease of one daemon: its own name, so several processes on one file never contend for it. */
export function daemonLeaseName(holder: Pick<LeaseHolder, 'id'>): string {
  return `daemon:${holder.id}`;
}

/** Whether a lease of the state is a daemon's liveness lease. */
export function isDaemonLease(name: string): boolean {
  return name.startsWith('daemon:');
}

export interface DaemonLease {
  /** Stops renewing and gives the lease back. */
  release(): Promise<void>;
}

/**
 * While `ragwatch run` is up on a state file, a lease of its own says so, renewed on its own timer whatever the
 * jobs do: `state migrate` refuses a file that a daemon uses between ticks as well as during one (a lease held only
 * by a tick left the file looking free). A daemon killed outright leaves its lease behind; a process on this host
 * that is gone, or a lease past its time, does not count (see `liveLease`).
 */
export async function holdDaemonLease(
  leases: Leases,
  holder: LeaseHolder,
  now: () => number,
  logger: Logger,
  ttlMs = DAEMON_LEASE_TTL_MS,
): Promise<DaemonLease> {
  const name = daemonLeaseName(holder);
  let failing = false;
  // `acquireLease` takes a lease that is already ours again: it renews, and takes it back if it ever lapsed.
  const renew = async () => {
    try {
      await leases.acquireLease(name, holder, ttlMs, now());
      failing = false;
    } catch (err) {
      if (!failing)
        logger.warn(
          { lease: name, error: isStateError(err) ? err.shortCode : 'error' },
          'renewing the daemon lease failed; retrying',
        );
      failing = true;
    }
  };
  await renew();
  const timer = setInterval(() => void renew(), Math.max(1000, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await leases.releaseLease(name, holder).catch(() => {});
    },
  };
}
