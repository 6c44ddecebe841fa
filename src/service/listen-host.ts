import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Resolves a host name (`dns.lookup`, as `server.listen` does); injected in tests so they never leave loopback. */
export type HostLookup = (host: string) => Promise<unknown>;

export const systemLookup: HostLookup = (host) => dnsLookup(host);

/**
 * The problem line when `http.host` cannot be listened on because it does not resolve, or null. Checked before
 * the state file is opened or anything starts: node's `listen` would otherwise fail with an unhandled
 * ENOTFOUND after the rest of the daemon came up.
 */
export async function listenHostProblem(host: string, lookup: HostLookup = systemLookup): Promise<string | null> {
  if (isIP(host) !== 0) return null;
  try {
    await lookup(host);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return `config: http.host: cannot be resolved on this machine (got ${JSON.stringify(host)}: ${code})`;
  }
}

/** The problem line for a listen error the configuration causes (port taken or privileged, address elsewhere), or null. */
export function listenErrorProblem(err: unknown, host: string, port: number): string | null {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `config: http.port: cannot listen on ${where}: the port is in use`;
  if (code === 'EACCES') {
    return `config: http.port: cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `config: http.host: cannot listen on ${where}: the address is not on this machine`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `config: http.host: cannot be resolved on this machine (got ${JSON.stringify(host)}: ${code})`;
  }
  return null;
}
