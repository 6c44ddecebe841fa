/**
 * Texts ragwatch prints come from outside (annotators' comments, dataset items, traces): an ANSI sequence in one
 * would colour, clear or retitle the reader's terminal, a bidi override would reorder what they read. Printed text
 * keeps its lines, tabs and every printable character; escape sequences (CSI, OSC, two-character ones), the other
 * C0 and C1 controls, DEL, a carriage return not ending a line and the bidi embeddings, overrides and isolates go.
 */

const ESCAPE_SEQUENCES = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

export function withoutControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '');
}

/**
 * `stream` writing text without control characters (`withoutControls`); every other property and method is the
 * stream's own (isTTY, columns, events, a write replaced later). Buffers pass as they are.
 */
export function controlFree<T extends NodeJS.WritableStream>(stream: T): T {
  const clean = (chunk: unknown) => (typeof chunk === 'string' ? withoutControls(chunk) : chunk);
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write')
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => boolean)(clean(chunk), ...rest);
      if (prop === 'end')
        return (...args: unknown[]) => {
          const [first, ...rest] = args;
          return (target.end as (...a: unknown[]) => unknown)(
            ...(typeof first === 'function' || first === undefined ? args : [clean(first), ...rest]),
          );
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
