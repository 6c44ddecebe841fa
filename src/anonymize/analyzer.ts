import { createRecognizers } from './recognizers/registry.js';
import { resolveOverlaps } from './resolve.js';
import { factsOf } from './text/facts.js';
import type { Candidate, Recognizer } from './types.js';

export interface AnalyzerOptions {
  phoneRegions: string[];
  /** Minimum score for a candidate to count. */
  threshold: number;
}

export interface Analyzer {
  /** Entities in the INPUT text, non-overlapping, sorted by position. */
  analyze(text: string): Candidate[];
}

/** Runs every recognizer once over the text, drops candidates under the threshold and resolves overlaps. */
export function createAnalyzer(options: AnalyzerOptions, recognizers: Recognizer[] = createRecognizers(options)): Analyzer {
  return {
    analyze(text) {
      if (text.length === 0) return [];
      const facts = factsOf(text);
      const candidates: Candidate[] = [];
      for (const r of recognizers) for (const c of r.find(text, facts)) if (c.score >= options.threshold && c.end > c.start) candidates.push(c);
      return resolveOverlaps(candidates);
    },
  };
}
