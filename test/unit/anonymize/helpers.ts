import type { Recognizer } from '../../../src/anonymize/types.js';

/** The substrings a recognizer proposes at or above a threshold. */
export function found(recognizer: Recognizer, text: string, threshold = 0.5): string[] {
  return recognizer
    .find(text)
    .filter((c) => c.score >= threshold)
    .map((c) => text.slice(c.start, c.end));
}
