import type { EventEmitter } from 'node:events';

/**
 * `ragwatch … | head -1`: once the reader of stdout or stderr has gone away, every write to it fails with EPIPE,
 * which Node reports as an 'error' event on the stream; unhandled, it ends the process with a stack trace and
 * exit 1. This one handler, on both streams, drops that stream's later writes instead, so the command finishes
 * and exits with its usual code (a failed gate piped into `head` still exits 1). Any other stream error is
 * raised as before.
 */
export function endQuietlyWhenReaderGoes(stream: NodeJS.WritableStream & EventEmitter): void {
  const onError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      stream.write = dropWrite;
      return;
    }
    stream.off('error', onError);
    stream.emit('error', err);
  };
  stream.on('error', onError);
}

function dropWrite(...args: unknown[]): boolean {
  const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
  callback?.();
  return true;
}
