import { describe, expect, it } from 'vitest';
import {
  contentWords,
  coverage,
  detectLanguage,
  isNoncommittal,
  isSupported,
  keywords,
  overlap,
  questionFor,
  section,
  sections,
  splitSentences,
} from '@ragwatch/devkit/judge/lexical.js';

describe('lexical helpers', () => {
  it('folds accents, drops stopwords and stems plurals', () => {
    expect(contentWords('La información de los clientes')).toEqual(contentWords('informacion cliente'));
    expect(contentWords('ciudades ciudad')).toEqual(['ciudad', 'ciudad']);
    expect(contentWords('The caches are in memory')).toEqual(contentWords('cache memory'));
    expect(contentWords('the of and')).toEqual([]);
  });

  it('splits sentences at punctuation and line breaks, dropping bullets', () => {
    expect(splitSentences('Redis is fast. It stores data in RAM!\n- It persists to disk.')).toEqual([
      'Redis is fast.',
      'It stores data in RAM!',
      'It persists to disk.',
    ]);
    expect(splitSentences('¿Qué es Redis? Es una base de datos.')).toEqual(['¿Qué es Redis?', 'Es una base de datos.']);
  });

  it('measures word coverage, so a changed figure lowers support', () => {
    const context = 'Redis 7.2 stores data in memory.';
    expect(coverage('Redis stores data in memory', context)).toBe(1);
    expect(isSupported('Redis 7.2 stores data in memory', context)).toBe(true);
    expect(coverage('Redis 6.0 stores data on disk', context)).toBeCloseTo(0.6);
    expect(coverage('the of and', context)).toBe(0);
    expect(overlap('red apple', 'green apple')).toBeCloseTo(1 / 3);
  });

  it('detects Spanish and English', () => {
    expect(detectLanguage('¿Cuál es la capital de Francia?')).toBe('es');
    expect(detectLanguage('What is the capital of France?')).toBe('en');
  });

  it('flags evasive answers in both languages', () => {
    expect(isNoncommittal("I don't know the answer to that.")).toBe(true);
    expect(isNoncommittal('No estoy seguro de la fecha.')).toBe(true);
    expect(isNoncommittal('No tengo información sobre eso.')).toBe(true);
    expect(isNoncommittal('Redis stores data in memory.')).toBe(false);
  });

  it('builds a question from an answer, in its language', () => {
    expect(questionFor('Redis stores data in memory.', 'en')).toBe(
      'What can you tell me about Redis stores data memory?',
    );
    expect(questionFor('Madrid es la capital de España.', 'es')).toBe('¿Qué se sabe sobre Madrid capital España?');
    expect(keywords('the Redis redis cache caches', 5)).toEqual(['Redis', 'cache']);
  });

  it('reads labelled, tagged and headed sections, the last occurrence winning', () => {
    const prompt =
      'Example:\nquestion: old\nanswer: old answer\n\nYour task:\nquestion: What is Redis?\nanswer: "Redis is fast.\nIt is in memory."\n<contexts>[1] a\n[2] b</contexts>\n## Reference\nRedis is an in-memory store.';
    const found = sections(prompt);
    expect(found.get('question')).toBe('What is Redis?');
    expect(found.get('answer')).toBe('Redis is fast.\nIt is in memory.');
    expect(found.get('contexts')).toBe('[1] a\n[2] b');
    expect(section(prompt, 'referencia', 'reference')).toBe('Redis is an in-memory store.');
  });
});
