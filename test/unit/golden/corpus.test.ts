import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkFromDocument, chunkFromJson, readCorpusFolder } from '../../../src/golden/corpus.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('corpus export', () => {
  it('reads JSONL chunks in the common shapes, metadata kept', () => {
    expect(chunkFromJson({ id: 'a', text: 'x', metadata: { section: 'billing' } })).toEqual({
      id: 'a',
      text: 'x',
      metadata: { section: 'billing' },
    });
    expect(chunkFromJson({ page_content: 'x', metadata: { chunk_id: 7, source: 'doc.pdf' } })).toEqual({
      id: '7',
      text: 'x',
      metadata: { chunk_id: 7, source: 'doc.pdf' },
    });
    expect(chunkFromJson({ _id: 'n', content: 'x', doc_id: 'd', position: 3, nested: { no: 1 } })).toEqual({
      id: 'n',
      text: 'x',
      metadata: { doc_id: 'd', position: 3 },
    });
    expect(chunkFromJson({ id: 'a', text: '   ' })).toMatch(/no text/);
    expect(chunkFromJson({ text: 'x' })).toMatch(/no id/);
    expect(chunkFromJson([1])).toMatch(/not a JSON object/);
  });

  it('reads a Markdown chunk with front matter; the id defaults to the path', () => {
    expect(chunkFromDocument('---\nid: faq-1\nsection: faq\n---\n# Q\nBody text.\n', 'faq/one.md')).toEqual({
      id: 'faq-1',
      text: '# Q\nBody text.',
      metadata: { path: 'faq/one.md', section: 'faq' },
    });
    expect(chunkFromDocument('\uFEFFPlain text only.', 'notes/a.txt')).toEqual({
      id: 'notes/a',
      text: 'Plain text only.',
      metadata: { path: 'notes/a.txt' },
    });
    expect(chunkFromDocument('---\n: : bad\n---\ntext', 'x.md')).toMatch(/front matter/);
    expect(chunkFromDocument('---\nid: x\n---\n', 'x.md')).toMatch(/no text/);
  });

  it('reads a folder recursively: language, document and position; problems by file and line, without their text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'golden-corpus-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'es'));
    writeFileSync(
      join(dir, 'chunks.jsonl'),
      [
        JSON.stringify({
          id: 'en-1',
          text: 'The hub costs 149 euros and supports 120 devices.',
          metadata: { document: 'hub.md', position: 1 },
        }),
        '{"id": "broken", "text": "secret text of a broken line"',
        '',
        JSON.stringify({ id: 'en-1', text: 'A second chunk with the same id.' }),
        JSON.stringify({
          id: 'en-0',
          text: 'The hub has a backup battery that lasts four hours.',
          metadata: { document: 'hub.md', position: 0, lang: 'en' },
        }),
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'es', 'devoluciones.md'),
      '---\nsection: returns\n---\nPuedes devolver cualquier producto durante 30 días naturales desde la entrega.',
    );
    writeFileSync(join(dir, '.hidden.md'), 'ignored');
    writeFileSync(join(dir, 'image.png'), 'ignored');
    const read = readCorpusFolder(dir);
    expect(read.files).toBe(2);
    expect(read.chunks.map((c) => [c.id, c.language, c.document, c.position])).toEqual([
      ['en-1', 'en', 'hub.md', 1],
      ['en-0', 'en', 'hub.md', 0],
      ['es/devoluciones', 'es', null, 3],
    ]);
    expect(read.problems).toEqual([
      'chunks.jsonl:2: not JSON',
      'chunks.jsonl:4: chunk id repeated (the first one is kept)',
    ]);
    expect(read.problems.join()).not.toContain('secret');
    expect(() => readCorpusFolder(join(dir, 'chunks.jsonl'))).toThrow(/not a folder/);
  });

  it('YAML warnings of front matter never carry its text: reported by file and line, nothing printed (issue 29)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'golden-corpus-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'owner.md'),
      '---\nid: faq-2\nowner: !foo juan.perez@example.com\nphone: !!phone 699112233\n---\nOrders ship within 48 hours.\n',
    );
    writeFileSync(join(dir, 'broken.md'), '---\nid: b\nnote: "Juan Pérez\n---\nText.\n');
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const read = readCorpusFolder(dir);
      expect(emitted).not.toHaveBeenCalled();
      expect(warned).not.toHaveBeenCalled();
      // The chunk is read (an unknown tag's value is kept as text), and each warning is one line by file and line.
      expect(read.chunks.map((c) => c.id)).toEqual(['faq-2']);
      expect(read.warnings).toEqual([
        'owner.md:3: front matter: an unknown YAML tag (the value is read as plain text)',
        'owner.md:4: front matter: an unknown YAML tag (the value is read as plain text)',
      ]);
      expect(read.problems).toEqual([expect.stringMatching(/^broken\.md:3: front matter is not YAML/)]);
      const all = JSON.stringify(read.warnings) + JSON.stringify(read.problems);
      expect(all).not.toMatch(/juan|Juan|699112233|!foo|phone/);
    } finally {
      emitted.mockRestore();
      warned.mockRestore();
    }
  });
});
