/** The anonymizer: recognizers, propagation and keys over related texts, one pseudonym mapping per sample. */
import { findShortAddresses } from './address-forms.js';
import { createAnalyzer, toOriginal } from './analyzer.js';
import { settleKeys } from './keys.js';
import { propagate } from './propagate.js';
import { PLACEHOLDER_PATTERN, Pseudonymizer, replaceAll, type Replacement } from './pseudonymizer.js';
import { repeatBirthDates } from './recognizers/date-of-birth.js';
import { createRecognizers } from './recognizers/registry.js';
import { shadowOf } from './text/shadow.js';
import type { RagSample } from '../sample.js';
import type { Candidate, DetectedEntity } from './types.js';

/** Skip reason recorded when a sample still carries personal data after anonymization. */
export const PII_RESIDUAL_SKIP_REASON = 'pii_residual';

export interface AnonymizerOptions {
  /** Regions tried for phone numbers without an international prefix (ISO 3166 alpha-2), e.g. ['ES', 'GB']. */
  phoneRegions: string[];
  /** Minimum recognizer score for a span to be redacted. */
  threshold: number;
  /** Minimum score of an entity found again in the output that blocks the sample. */
  residualThreshold: number;
  /** Label phrases added to the built-in identifier labels, ES and EN (`anonymize.identifierLabels`). */
  identifierLabels?: readonly string[];
}

export interface FieldText {
  /** 'question' | 'answer' | 'contexts[2]' | 'reference' | 'text' */
  field: string;
  text: string;
}

export interface AnonymizedFields {
  texts: string[];
  entities: DetectedEntity[];
  residual: DetectedEntity[];
  /** Per field, what was replaced where (input and output positions); for measurements, never for logs. */
  replacements: Replacement[][];
}

export interface Anonymizer {
  anonymizeText(text: string): { text: string; entities: DetectedEntity[] };
  /** One mapping for the whole sample: the same value gets the same placeholder in every field. */
  anonymizeSample(sample: RagSample): { sample: RagSample; entities: DetectedEntity[]; residual: DetectedEntity[] };
  /** Anonymizes related texts with one mapping; `residual` lists high-confidence entities still present. */
  anonymizeFields(fields: FieldText[]): AnonymizedFields;
  /** Entities of one text, positions in the input, mapping-free; for measurements and the residual gate. */
  analyze(text: string): Candidate[];
}

export function createAnonymizer(options: AnonymizerOptions): Anonymizer {
  const recognizers = createRecognizers(options);
  const analyzer = createAnalyzer(options, recognizers);
  const residualAnalyzer = createAnalyzer({ ...options, threshold: options.residualThreshold }, recognizers);

  function run(fields: FieldText[], withResidual: boolean): AnonymizedFields {
    // Recognised, propagated and keyed on the shadows (shadow.ts); replaced on the originals.
    const shadows = fields.map((f) => shadowOf(f.text));
    const texts = fields.map((f, i) => shadows[i]?.text ?? f.text);
    const found = settleKeys(
      repeatBirthDates(
        texts,
        findShortAddresses(
          texts,
          propagate(
            texts,
            texts.map((t) => analyzer.analyzeShadow(t)),
          ),
        ),
      ),
      texts,
    ).map((cands, i) => (shadows[i] ? toOriginal(cands, shadows[i]) : cands));
    const pseudonymizer = new Pseudonymizer();
    const outTexts: string[] = [];
    const entities: DetectedEntity[] = [];
    const residual: DetectedEntity[] = [];
    const replacements: Replacement[][] = [];
    fields.forEach((f, i) => {
      const { text, replacements: reps } = replaceAll(f.text, found[i]!, pseudonymizer);
      outTexts.push(text);
      replacements.push(reps);
      for (const r of reps)
        entities.push({ type: r.type, field: f.field, start: r.outStart, end: r.outEnd, score: r.score });
      if (withResidual) residual.push(...residualIn(text, f.field));
    });
    return { texts: outTexts, entities, residual, replacements };
  }

  function residualIn(text: string, field: string): DetectedEntity[] {
    const left = residualAnalyzer.analyze(text);
    if (left.length === 0) return [];
    const placeholders = [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => [m.index, m.index + m[0].length] as const);
    return left
      .filter((c) => !placeholders.some(([s, e]) => c.start < e && s < c.end))
      .map((c) => ({ type: c.type, field, start: c.start, end: c.end, score: c.score }));
  }

  return {
    anonymizeText(text) {
      const result = run([{ field: 'text', text }], false);
      return { text: result.texts[0]!, entities: result.entities };
    },
    anonymizeSample(sample) {
      const fields: FieldText[] = [
        { field: 'question', text: sample.question },
        { field: 'answer', text: sample.answer },
        ...sample.contexts.map((text, i) => ({ field: `contexts[${i}]`, text })),
      ];
      if (sample.reference !== undefined) fields.push({ field: 'reference', text: sample.reference });
      const result = run(fields, true);
      const [question, answer, ...rest] = result.texts;
      const contexts = rest.slice(0, sample.contexts.length);
      const anonymized: RagSample = { ...sample, question: question!, answer: answer!, contexts };
      if (sample.reference !== undefined) anonymized.reference = rest[sample.contexts.length]!;
      return { sample: anonymized, entities: result.entities, residual: result.residual };
    },
    anonymizeFields(fields) {
      return run(fields, true);
    },
    analyze(text) {
      return analyzer.analyze(text);
    },
  };
}
