import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LangfuseStore, StoreSnapshot } from './store.js';

/** Loads a snapshot saved by `saveStore` into a fresh store; a missing file is an empty project. */
export function loadStore(store: LangfuseStore, path: string): void {
  if (!existsSync(path)) return;
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as StoreSnapshot;
  if (snapshot.version !== 1)
    throw new Error(`${path}: unsupported devkit Langfuse snapshot version ${String(snapshot.version)}`);
  store.restore(snapshot);
}

/** Writes atomically (temp file + rename) so a crash never leaves half a snapshot. */
export function saveStore(store: LangfuseStore, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(store.snapshot()));
  renameSync(tmp, path);
}

/** Saves shortly after changes settle (one write per burst of seeding) and on flush. */
export function persistOnChange(store: LangfuseStore, path: string, delayMs = 200): { flush(): void; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let dirty = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (dirty) {
      dirty = false;
      saveStore(store, path);
    }
  };
  const unsubscribe = store.onChange(() => {
    dirty = true;
    if (!timer) {
      timer = setTimeout(flush, delayMs);
      timer.unref();
    }
  });
  return {
    flush,
    stop() {
      unsubscribe();
      flush();
    },
  };
}
