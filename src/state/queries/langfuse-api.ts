import type { MetaValue, StateStore } from '../types.js';

/**
 * The Langfuse API generation ragwatch last connected with, kept in the state so `ragwatch status` can show
 * it without calling Langfuse. Written by the daemon and by `sample` right after start-up detection.
 */

export const LANGFUSE_API_META_KEY = 'langfuse.api';

export type LangfuseApiGeneration = 'v3' | 'v4';

export interface LangfuseApiRecord {
  generation: LangfuseApiGeneration;
  /** `detected` when probed (`langfuse.apiGeneration: auto`), `configured` when the config named it. */
  source: 'detected' | 'configured';
  /** When it was recorded, ms since epoch. */
  at: number;
}

export async function recordLangfuseApi(
  state: Pick<StateStore, 'setMeta'>,
  generation: LangfuseApiGeneration,
  setting: 'auto' | LangfuseApiGeneration,
  now: number,
): Promise<void> {
  await state.setMeta(
    LANGFUSE_API_META_KEY,
    JSON.stringify({ generation, source: setting === 'auto' ? 'detected' : 'configured' }),
    now,
  );
}

/** Null for a missing or unrecognisable record (a state file from an older ragwatch has none). */
export function parseLangfuseApi(meta: MetaValue | null): LangfuseApiRecord | null {
  if (!meta) return null;
  try {
    const value = JSON.parse(meta.value) as { generation?: unknown; source?: unknown };
    if (value.generation !== 'v3' && value.generation !== 'v4') return null;
    const source = value.source === 'configured' ? 'configured' : 'detected';
    return { generation: value.generation, source, at: meta.updatedAt };
  } catch {
    return null;
  }
}
