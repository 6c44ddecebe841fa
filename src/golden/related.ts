import type { Chunk } from './types.js';

/**
 * The chunks a multi-hop question combines with its seed. Document structure first: the seed's neighbours in its
 * source document (reading order). Then, for a chunk without a document or alone in it among the eligible chunks,
 * chunks of the same language sharing at least two of its rarer entities (names, acronyms, codes), ranked by how
 * rare what they share is (each entity weighs log(N / df): N eligible chunks, df those carrying it). An entity in
 * more than `DF_CEILING` of the chunks (the product's own name) relates nothing; one name read twice (`Relay R2`
 * and the code `R2` in it) counts once. No partner at all rather than an unrelated one. Pure and deterministic.
 */

/** Document-frequency ceiling: an entity carried by more than this share of the chunks (and by more than two) does not count. */
export const DF_CEILING = 0.1;

export interface RelatedIndex {
  byDocument: Map<string, Chunk[]>;
  entities: Map<string, Set<string>>;
  chunksByEntity: Map<string, string[]>;
  byId: Map<string, Chunk>;
  /** Eligible chunks indexed (N of the weights). */
  size: number;
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
  // An entity in more than DF_CEILING of the corpus (the product's own name) links everything: it does not count.
  for (const [e, ids] of chunksByEntity)
    if (ids.length > 2 && ids.length > DF_CEILING * chunks.length) chunksByEntity.delete(e);
  return { byDocument, entities, chunksByEntity, byId: new Map(chunks.map((c) => [c.id, c])), size: chunks.length };
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
  const shared = new Map<string, string[]>();
  for (const e of index.entities.get(seed.id) ?? []) {
    for (const id of index.chunksByEntity.get(e) ?? []) {
      if (id === seed.id || index.byId.get(id)?.language !== seed.language) continue;
      let list = shared.get(id);
      if (!list) shared.set(id, (list = []));
      list.push(e);
    }
  }
  const weight = (e: string) => Math.log(index.size / index.chunksByEntity.get(e)!.length);
  return [...shared]
    .map(([id, list]) => ({ id, kept: distinctEntities(list) }))
    .filter((r) => r.kept.length >= 2)
    .map((r) => ({ id: r.id, score: r.kept.reduce((sum, e) => sum + weight(e), 0) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, want)
    .map((r) => index.byId.get(r.id)!);
}

/** Shared entities without those read inside another one (`r2` inside `relay r2`): one name counts once. */
function distinctEntities(list: readonly string[]): string[] {
  const words = (e: string) => ` ${e.replace(/-/g, ' ')} `;
  return list.filter((e) => !list.some((f) => f !== e && words(f).includes(words(e))));
}
