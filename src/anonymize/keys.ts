import type { Candidate, EntityType } from './types.js';

/**
 * The placeholder keys of one trace, settled across its fields once every field's candidates are known:
 * - a value with alternative keys (a national phone number valid in several regions, a numeric date that reads
 *   both day-first and month-first) takes the alternative the trace shows elsewhere ("+57 301 234 5678" makes
 *   "301 234 5678" Colombian, "6 May 1978" makes "06/05/1978" the 6th of May);
 * - a shorter form of a person's name takes the key of the one longer name it belongs to: "Laura", "L. Gómez" and
 *   "Gómez" are "laura gomez" when the trace names no other Laura or Gómez. Two different people keep two keys.
 */
export function settleKeys(found: Candidate[][]): Candidate[][] {
  return unifyPersonKeys(takeAlternatives(found));
}

function takeAlternatives(found: Candidate[][]): Candidate[][] {
  let any = false;
  const definite = new Map<EntityType, Set<string>>();
  for (const cands of found) {
    for (const c of cands) {
      if (c.alternatives) any = true;
      else {
        let set = definite.get(c.type);
        if (!set) definite.set(c.type, (set = new Set()));
        set.add(c.normalized);
      }
    }
  }
  if (!any || definite.size === 0) return found;
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
  const names = new Set<string>();
  for (const cands of found) for (const c of cands) if (c.type === 'PERSON') names.add(c.normalized);
  if (names.size < 2) return found;
  // Full names by their words of two letters or more: the candidate owners of a shorter form share one of them.
  const byWord = new Map<string, string[][]>();
  const split = new Map<string, string[]>();
  for (const name of names) {
    const words = name.split(' ');
    split.set(name, words);
    for (const w of new Set(words)) if (w.length > 1) byWord.set(w, [...(byWord.get(w) ?? []), words]);
  }
  const settled = new Map<string, string>();
  for (const [name, words] of split) {
    const anchor = words.filter((w) => w.length > 1).sort((a, b) => (byWord.get(a)!.length - byWord.get(b)!.length))[0];
    if (anchor === undefined) continue;
    const owners = byWord.get(anchor)!.filter((o) => o.length > words.length && containedIn(words, o));
    // The longest forms among the owners: "luciana" belongs to "luciana villarroel santillan" through "luciana villarroel".
    const maximal = owners.filter((o) => !owners.some((p) => p !== o && p.length > o.length && containedIn(o, p)));
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
