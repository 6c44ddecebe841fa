import type { Candidate, EntityType } from './types.js';

/**
 * The placeholder keys of one trace, settled across its fields once every field's candidates are known:
 * - a value with alternative keys (a national phone number valid in several regions, a numeric date that reads
 *   both day-first and month-first) takes the alternative the trace shows elsewhere ("+57 301 234 5678" makes
 *   "301 234 5678" Colombian, "6 May 1978" makes "06/05/1978" the 6th of May);
 * - a shorter form of a person's name takes the key of the one longer name it belongs to: "Laura", "L. Gómez" and
 *   "Gómez" are "laura gomez" when the trace names no other Laura or Gómez. Two different people keep two keys.
 */
export function settleKeys(found: Candidate[][], texts?: string[]): Candidate[][] {
  return unifyPersonKeys(takeAlternatives(texts ? found.map((c, f) => joinAdjacentNames(texts[f]!, c)) : found));
}

/**
 * Two names next to each other are one person's name: "tobias" and "wexford" found apart ("Sr. Wexford" elsewhere
 * made "wexford" known) are "tobias wexford", which "wexford" then belongs to; "marisol" and "quintana" found as words
 * of one name stay that name. Only one blank between them.
 */
function joinAdjacentNames(text: string, cands: Candidate[]): Candidate[] {
  let out: Candidate[] | undefined;
  for (let k = 1; k < cands.length; k++) {
    const a = (out ?? cands)[out ? out.length - 1 : k - 1]!;
    const b = cands[k]!;
    const joinable =
      a.type === 'PERSON' &&
      b.type === 'PERSON' &&
      b.start - a.end === 1 &&
      text.charCodeAt(a.end) === 32 &&
      (a.normalized === b.normalized || (!a.normalized.includes(' ') && !b.normalized.includes(' ')));
    if (!joinable) {
      if (out) out.push(b);
      continue;
    }
    out ??= cands.slice(0, k - 1);
    if (out[out.length - 1] === a) out.pop();
    const normalized = a.normalized === b.normalized ? a.normalized : `${a.normalized} ${b.normalized}`;
    out.push({ type: 'PERSON', start: a.start, end: b.end, score: Math.max(a.score, b.score), normalized });
  }
  return out ?? cands;
}

function takeAlternatives(found: Candidate[][]): Candidate[][] {
  if (!found.some((cands) => cands.some((c) => c.alternatives !== undefined))) return found;
  const definite = new Map<EntityType, Set<string>>();
  for (const cands of found) {
    for (const c of cands) {
      if (c.alternatives) continue;
      let set = definite.get(c.type);
      if (!set) definite.set(c.type, (set = new Set()));
      set.add(c.normalized);
    }
  }
  if (definite.size === 0) return found;
  return found.map((cands) =>
    cands.map((c) => {
      const known = c.alternatives ? definite.get(c.type) : undefined;
      if (!known || known.has(c.normalized)) return c;
      const alt = c.alternatives!().find((a) => known.has(a));
      return alt === undefined ? c : { ...c, normalized: alt };
    }),
  );
}

/** Word `short` of a shorter form stands for word `long` of a full name: equal, or its initial ("r" for "ruth"). */
const wordFits = (short: string, long: string) => short === long || (short.length === 1 && long.startsWith(short));

/** The words of `short` appear in `long` in the same order (initials standing for words). */
function containedIn(short: string[], long: string[]): boolean {
  let j = 0;
  for (const w of short) {
    while (j < long.length && !wordFits(w, long[j]!)) j++;
    if (j === long.length) return false;
    j++;
  }
  return true;
}

function unifyPersonKeys(found: Candidate[][]): Candidate[][] {
  const names = new Map<string, string[]>();
  let longest = 0;
  let shortest = Infinity;
  for (const cands of found) {
    for (const c of cands) {
      if (c.type !== 'PERSON' || names.has(c.normalized)) continue;
      const words = c.normalized.split(' ');
      names.set(c.normalized, words);
      longest = Math.max(longest, words.length);
      shortest = Math.min(shortest, words.length);
    }
  }
  // Only a shorter form, or one with initials ("H. Blackwood" of "Harriet Blackwood"), can belong to another name.
  const initials = (words: string[]) => words.filter((w) => w.length === 1).length;
  const anyInitial = [...names.values()].some((w) => initials(w) > 0);
  if (shortest >= longest && !anyInitial) return found;
  /** `long` says more than `short`: more words, or as many with fewer initials. */
  const moreSpecific = (long: string[], short: string[]) =>
    long.length > short.length || (long.length === short.length && initials(long) < initials(short));
  const list = [...names.values()];
  // Many names (a long document): candidate owners share a word with the shorter form.
  let byWord: Map<string, string[][]> | undefined;
  if (list.length > 32) {
    byWord = new Map();
    for (const words of list) {
      if (words.length === shortest && initials(words) > 0) continue;
      for (const w of new Set(words)) {
        const l = byWord.get(w);
        if (l) l.push(words);
        else byWord.set(w, [words]);
      }
    }
  }
  const settled = new Map<string, string>();
  for (const [name, words] of names) {
    if (words.length === longest && initials(words) === 0) continue;
    let pool = list;
    if (byWord) {
      const anchor = words.find((w) => w.length > 1);
      if (anchor === undefined) continue;
      pool = byWord.get(anchor) ?? [];
    }
    const owners = pool.filter((o) => moreSpecific(o, words) && containedIn(words, o));
    if (owners.length === 0) continue;
    // The longest forms among the owners: "luciana" belongs to "luciana villarroel santillan" through "luciana villarroel".
    const maximal = owners.filter((o) => !owners.some((p) => p !== o && moreSpecific(p, o) && containedIn(o, p)));
    if (maximal.length === 1) settled.set(name, maximal[0]!.join(' '));
  }
  if (settled.size === 0) return found;
  return found.map((cands) => {
    let out: Candidate[] | undefined;
    for (let k = 0; k < cands.length; k++) {
      const c = cands[k]!;
      const key = c.type === 'PERSON' ? settled.get(c.normalized) : undefined;
      if (key !== undefined) (out ??= [...cands])[k] = { ...c, normalized: key };
    }
    return out ?? cands;
  });
}
