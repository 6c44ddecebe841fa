/** Child processes of bench/scale: forked with this process's loader (tsx), talked to over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromStandIns, Snapshot, StandInsSpec, ToStandIns } from './stand-ins.js';
import type { FromReplica, ToReplica } from './replica.js';

function nextMessage<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      proc.off('exit', onExit);
      proc.off('message', onMessage);
      resolve(m as T);
    };
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) before sending ${type}`));
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

function forkChild(file: string, arg: unknown): ChildProcess {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const child = fork(path, ['--child', JSON.stringify(arg)], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  // node-cron warns on stderr at every firing skipped while a run goes on (back-to-back catch-up runs): not news here.
  let rest = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (!line.includes('NODE-CRON')) process.stderr.write(`${line}\n`);
  });
  return child;
}

export interface StandIns {
  ready: Extract<FromStandIns, { type: 'ready' }>;
  ask(m: ToStandIns): Promise<Snapshot & { seeded?: number }>;
  close(): Promise<void>;
}

export async function startStandIns(spec: StandInsSpec): Promise<StandIns> {
  const proc = forkChild('./stand-ins.ts', spec);
  const ready = await nextMessage<Extract<FromStandIns, { type: 'ready' }>>(proc, 'ready');
  // One question at a time: every answer is a 'done', so two in flight could not tell theirs apart.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ready,
    ask: (m) => {
      const answer = queue.then(() => {
        const done = nextMessage<Snapshot & { seeded?: number }>(proc, 'done');
        proc.send(m);
        return done;
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.send({ type: 'close' } satisfies ToStandIns);
      }),
  };
}

export interface Replica {
  /** Asks the daemon to shut down; resolves with its CPU time and peak RSS. */
  stop(): Promise<{ cpuMs: number; peakRssMb: number }>;
}

/** Starts a replica (the real daemon) on `config`; resolves once it is connected and scheduling. */
export async function startReplica(config: unknown): Promise<Replica> {
  const proc = forkChild('./replica.ts', config);
  await nextMessage(proc, 'ready');
  return {
    stop: async () => {
      const stopped = nextMessage<Extract<FromReplica, { type: 'stopped' }>>(proc, 'stopped');
      proc.send({ type: 'stop' } satisfies ToReplica);
      const r = await stopped;
      await new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));
      return { cpuMs: r.cpuMs, peakRssMb: r.peakRssMb };
    },
  };
}
