import { createIdentifierLayer } from './identifiers/layer.js';
import { createRecognizers } from './recognizers/registry.js';
import { resolveOverlaps } from './resolve.js';
import { factsOf } from './text/facts.js';
import { shadowOf, type Shadow } from './text/shadow.js';
import type { Candidate, Recognizer } from './types.js';

export interface AnalyzerOptions {
  phoneRegions: string[];
  /** Minimum score for a candidate to count. */
  threshold: number;
  /** Label phrases added to the built-in identifier labels (identifiers/labels.ts). */
  identifierLabels?: readonly string[];
}

export interface Analyzer {
  /** Entities in the INPUT text, non-overlapping, sorted by position (recognised on its shadow, see shadow.ts). */
  analyze(text: string): Candidate[];
  /** Entities of a text that is already a shadow (or needs none), in its own positions. */
  analyzeShadow(text: string): Candidate[];
}

/**
 * Runs every recognizer once over the text, drops candidates under the threshold and resolves overlaps; then the
 * identifier layer replaces the numbers they left that no keep-rule knows (identifiers/layer.ts).
 */
export function createAnalyzer(
  options: AnalyzerOptions,
  recognizers: Recognizer[] = createRecognizers(options),
): Analyzer {
  const layer = createIdentifierLayer(options);
  const analyzeShadow = (text: string): Candidate[] => {
    if (text.length === 0) return [];
    const facts = factsOf(text);
    const candidates: Candidate[] = [];
    for (const r of recognizers)
      for (const c of r.find(text, facts)) if (c.score >= options.threshold && c.end > c.start) candidates.push(c);
    const found = resolveOverlaps(candidates, text);
    return layer(text, facts, found).filter((c) => c.score >= options.threshold);
  };
  return {
    analyze(text) {
      const shadow = shadowOf(text);
      return shadow ? toOriginal(analyzeShadow(shadow.text), shadow) : analyzeShadow(text);
    },
    analyzeShadow,
  };
}

/**
 * Sorted, disjoint candidates of a shadow, with positions in the original text. Two spans that split one
 * changed character ("½" read as "1⁄2") would overlap there: the later one starts where the earlier ends.
 */
export function toOriginal(candidates: Candidate[], shadow: Shadow): Candidate[] {
  const out: Candidate[] = [];
  let taken = 0;
  for (const c of candidates) {
    const start = Math.max(taken, shadow.start(c.start));
    const end = shadow.end(c.end);
    if (end <= start) continue;
    out.push({ ...c, start, end });
    taken = end;
  }
  return out;
}
