import type { Chunk } from './types.js';

/**
 * The chunks a multi-hop question combines with its seed: the seed's neighbours in its source document, or,
 * for a chunk without a document (or alone in it), chunks of the same language that share at least two of its
 * rarer entities (names, acronyms, codes). Pure and deterministic.
 */

export interface RelatedIndex {
  byDocument: Map<string, Chunk[]>;
  entities: Map<string, Set<string>>;
  chunksByEntity: Map<string, string[]>;
  byId: Map<string, Chunk>;
}

const NAME = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}]*(?:[ -]\p{Lu}[\p{L}\p{N}]*)*/gu;
const CODE = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}-]*\p{N})(?=[\p{L}\p{N}-]*\p{L})[\p{L}\p{N}][\p{L}\p{N}-]+/gu;

/** Names not opening a sentence, acronyms and codes with digits (`R2`, `OpenTherm`, `IP65`), folded. */
export function entitiesOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(NAME)) {
    const before = text.slice(0, m.index).trimEnd();
    const opensSentence = before === '' || /[.!?¿¡:;\n]$/.test(before);
    // A sentence's first word is capitalised anyway: "The Lumora Hub" names "Lumora Hub".
    const name = opensSentence && !/^\p{Lu}{2,}/u.test(m[0]) ? m[0].replace(/^\S+[ -]?/u, '') : m[0];
    if (name !== '') out.add(name.toLowerCase());
  }
  for (const m of text.matchAll(CODE)) out.add(m[0].toLowerCase());
  return out;
}

export function relatedIndex(chunks: readonly Chunk[]): RelatedIndex {
  const byDocument = new Map<string, Chunk[]>();
  const entities = new Map<string, Set<string>>();
  const chunksByEntity = new Map<string, string[]>();
  for (const chunk of chunks) {
    if (chunk.document !== null) {
      let list = byDocument.get(chunk.document);
      if (!list) byDocument.set(chunk.document, (list = []));
      list.push(chunk);
    }
    const found = entitiesOf(chunk.text);
    entities.set(chunk.id, found);
    for (const e of found) {
      let ids = chunksByEntity.get(e);
      if (!ids) chunksByEntity.set(e, (ids = []));
      ids.push(chunk.id);
    }
  }
  for (const list of byDocument.values()) list.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  // An entity in more than a fifth of the corpus (the product's own name) links everything: it does not count.
  const common = Math.max(3, Math.ceil(chunks.length / 5));
  for (const [e, ids] of chunksByEntity) if (ids.length > common) chunksByEntity.delete(e);
  return { byDocument, entities, chunksByEntity, byId: new Map(chunks.map((c) => [c.id, c])) };
}

/** Up to `size - 1` chunks to go with the seed, in reading order; none when nothing is related. */
export function relatedChunks(index: RelatedIndex, seed: Chunk, size: number): Chunk[] {
  const want = size - 1;
  const doc = seed.document === null ? undefined : index.byDocument.get(seed.document);
  if (doc && doc.length > 1) {
    const at = doc.findIndex((c) => c.id === seed.id);
    const start = Math.max(0, Math.min(at, doc.length - size));
    return doc
      .slice(start, start + size)
      .filter((c) => c.id !== seed.id)
      .slice(0, want);
  }
  const shared = new Map<string, number>();
  for (const e of index.entities.get(seed.id) ?? []) {
    for (const id of index.chunksByEntity.get(e) ?? []) if (id !== seed.id) shared.set(id, (shared.get(id) ?? 0) + 1);
  }
  return [...shared]
    .filter(([id, n]) => n >= 2 && index.byId.get(id)?.language === seed.language)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, want)
    .map(([id]) => index.byId.get(id)!);
}
