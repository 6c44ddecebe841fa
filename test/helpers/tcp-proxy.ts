import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback for cutting a connection without touching the server behind it (the shared
 * PostgreSQL must never be stopped): `cut()` drops every open connection and refuses new ones until
 * `restore()`.
 */
export interface TcpProxy {
  readonly port: number;
  readonly host: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    host: '127.0.0.1',
    get accepted() {
      return accepted;
    },
    cut() {
      cut = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same PostgreSQL URL through the proxy. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = proxy.host;
  u.port = String(proxy.port);
  return u.toString();
}
