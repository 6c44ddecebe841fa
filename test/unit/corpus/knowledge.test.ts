import { describe, expect, it } from 'vitest';
import {
  GOLDEN_ITEMS,
  KNOWLEDGE,
  chunkById,
  goldenItems,
  searchKnowledge,
  terms,
} from '@ragwatch/devkit/corpus/index.js';

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe('knowledge base', () => {
  it('holds 40–80 chunks in Spanish and English, each 60–150 words, with unique ids', () => {
    expect(KNOWLEDGE.length).toBeGreaterThanOrEqual(40);
    expect(KNOWLEDGE.length).toBeLessThanOrEqual(80);
    expect(new Set(KNOWLEDGE.map((c) => c.id)).size).toBe(KNOWLEDGE.length);
    const es = KNOWLEDGE.filter((c) => c.lang === 'es').length;
    expect(es).toBeGreaterThan(KNOWLEDGE.length / 2);
    expect(KNOWLEDGE.length - es).toBeGreaterThan(20);
    for (const chunk of KNOWLEDGE) {
      expect(words(chunk.text), chunk.id).toBeGreaterThanOrEqual(60);
      expect(words(chunk.text), chunk.id).toBeLessThanOrEqual(150);
      expect(chunk.id.startsWith(`${chunk.lang}-`)).toBe(true);
      expect(chunk.source).toMatch(new RegExp(`^kb/${chunk.lang}/.+\\.md$`));
    }
  });

  it('covers support topics and internal HR policies', () => {
    const topics = new Set(KNOWLEDGE.map((c) => c.topic));
    for (const t of [
      'products',
      'plans',
      'billing',
      'returns',
      'warranty',
      'shipping',
      'tech',
      'account',
      'privacy',
      'support',
      'hr',
    ])
      expect(topics).toContain(t);
  });
});

describe('golden set', () => {
  it('has at least 60 items with every type and split in both languages', () => {
    expect(GOLDEN_ITEMS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(GOLDEN_ITEMS.map((i) => i.id)).size).toBe(GOLDEN_ITEMS.length);
    for (const lang of ['es', 'en'] as const) {
      for (const type of ['single-hop', 'multi-hop', 'adversarial'] as const) {
        for (const split of ['dev', 'test'] as const)
          expect(goldenItems({ lang, type, split }).length, `${lang}/${type}/${split}`).toBeGreaterThan(0);
      }
    }
    expect(goldenItems({ lang: 'es' }).length / GOLDEN_ITEMS.length).toBeGreaterThan(0.55);
  });

  it('grounds references in existing chunks of the same language', () => {
    for (const item of GOLDEN_ITEMS) {
      expect(item.reference.length).toBeGreaterThan(10);
      for (const id of item.sources) expect(chunkById(id).lang).toBe(item.lang);
      if (item.type === 'single-hop') expect(item.sources).toHaveLength(1);
      if (item.type === 'multi-hop')
        expect(item.sources.length + (item.reference.match(/\d/g)?.length ?? 0)).toBeGreaterThan(1);
    }
    expect(GOLDEN_ITEMS.some((i) => i.type === 'adversarial' && i.sources.length === 0)).toBe(true);
  });
});

describe('searchKnowledge', () => {
  it('finds a source chunk in the top 4 for most single-hop questions', () => {
    const single = goldenItems({ type: 'single-hop' });
    const hits = single.filter((item) =>
      searchKnowledge(item.question, { lang: item.lang, k: 4 }).some((s) => item.sources.includes(s.chunk.id)),
    );
    expect(hits.length / single.length).toBeGreaterThan(0.7);
  });

  it('only returns chunks of the requested language, best first, honouring exclusions', () => {
    const results = searchKnowledge('reembolso devolución Bizum', {
      lang: 'es',
      k: 5,
      exclude: new Set(['es-devoluciones-2']),
    });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.chunk.lang === 'es' && r.chunk.id !== 'es-devoluciones-2')).toBe(true);
    for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
  });

  it('normalises accents, case and plurals', () => {
    expect(terms('Devoluciones rápidas, CÁMARAS')).toEqual(['devolucion', 'rapida', 'camara']);
  });
});
