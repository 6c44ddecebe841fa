import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { ENTITY_TYPES } from '../../../src/anonymize/types.js';
import { luhnValid } from '../../../src/anonymize/validators/luhn.js';
import { loadDocs, loadSamples } from '../../fixtures/pii/corpus.js';
import { evaluateCorpus, validatedLeaks } from '../../fixtures/pii/metrics.js';

const docs = loadDocs();
const samples = loadSamples();
const report = evaluateCorpus(
  createAnonymizer({
    phoneRegions: ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'],
    threshold: 0.5,
    residualThreshold: 0.8,
  }),
  docs,
  samples,
);

describe('labelled PII corpus', () => {
  it('is large and varied enough to mean something', () => {
    expect(report.entities).toBeGreaterThanOrEqual(400);
    expect(report.negatives).toBeGreaterThanOrEqual(200);
    for (const type of ENTITY_TYPES) expect(report.types.find((t) => t.type === type)!.gold, type).toBeGreaterThan(0);
    // Look-alikes with a wrong checksum: IP addresses that cannot be one stay; the others are identifiers to replace.
    const lookalikes = docs.flatMap((d) => [
      ...d.negatives.filter((n) => n.lookalike),
      ...d.entities.filter((e) => e.type === 'ID'),
    ]);
    expect(lookalikes.length).toBeGreaterThanOrEqual(20);
    for (const n of lookalikes.filter((x) => /^\d[\d -]{12,}$/.test(x.value)))
      expect(luhnValid(n.value.replace(/\D/g, '')), n.value).toBe(false);
  });

  it('never leaks a validated value (email, phone, IBAN, card, DNI/NIE, IP)', () => {
    expect(validatedLeaks(report)).toEqual([]);
  });

  it('finds at least 90 % of the people', () => {
    expect(report.types.find((t) => t.type === 'PERSON')!.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('finds every validated value', () => {
    for (const t of report.types.filter((x) =>
      ['EMAIL', 'PHONE', 'ES_NIF', 'ES_NIE', 'IBAN', 'CREDIT_CARD', 'IP_ADDRESS'].includes(x.type),
    ))
      expect(t.recall, t.type).toBe(1);
  });

  it('over-redacts at most 2 % of the hard negatives and keeps precision high', () => {
    expect(report.overRedactionRate).toBeLessThanOrEqual(0.02);
    for (const t of report.types) expect(t.precision, t.type).toBeGreaterThanOrEqual(0.9);
  });

  it('gives a repeated value the same placeholder across fields, and different values different ones', () => {
    expect(report.consistencyGroups).toBeGreaterThanOrEqual(20);
    expect(report.consistency).toBeGreaterThanOrEqual(0.95);
  });
});

describe('labelled PII corpus, figures held while tuning on other text', () => {
  // The generalisation work (issue: the figures must hold on text nobody tuned it on) kept this corpus at
  // P = R = 1.000 with nothing over-redacted; a change that costs here must say why.
  it('keeps every recognised value and adds none', () => {
    for (const t of report.types) expect([t.type, t.fp, t.fn]).toEqual([t.type, 0, 0]);
    expect(report.overRedactions).toEqual([]);
  });
});
