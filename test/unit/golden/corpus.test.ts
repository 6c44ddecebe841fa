import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('reads a folder recursively: language, document and position; problems by file and line, without their text', async () => {
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
    const read = await readCorpusFolder(dir);
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
    await expect(readCorpusFolder(join(dir, 'chunks.jsonl'))).rejects.toThrow(/not a folder/);
  });

  it('YAML warnings of front matter never carry its text: reported by file and line, nothing printed (issue 29)', async () => {
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
      const read = await readCorpusFolder(dir);
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

  describe('a hostile folder (issue 30)', () => {
    const folder = () => {
      const dir = mkdtempSync(join(tmpdir(), 'golden-corpus-'));
      dirs.push(dir);
      writeFileSync(join(dir, 'ok.md'), 'Orders ship within 48 hours of payment, Monday to Friday.');
      return dir;
    };

    it('skips a FIFO without opening it, and counts it', async () => {
      const dir = folder();
      execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
      const read = await readCorpusFolder(dir);
      expect(read.chunks.map((c) => c.id)).toEqual(['ok']);
      expect(read.skipped.not_regular).toBe(1);
      expect(read.problems).toEqual(['pipe.jsonl: not a regular file (a FIFO, socket or device): skipped']);
    });

    it('refuses a link to a file or a folder outside the folder, reads one inside', async () => {
      const dir = folder();
      const outside = mkdtempSync(join(tmpdir(), 'golden-outside-'));
      dirs.push(outside);
      writeFileSync(join(outside, 'secret.md'), 'root:x:0:0:root:/root:/bin/bash');
      symlinkSync(join(outside, 'secret.md'), join(dir, 'passwd.md'));
      symlinkSync(outside, join(dir, 'elsewhere'));
      mkdirSync(join(dir, 'inner'));
      writeFileSync(join(dir, 'inner', 'real.md'), 'Returns are accepted for thirty days after delivery.');
      symlinkSync(join(dir, 'inner', 'real.md'), join(dir, 'alias.md'));
      const read = await readCorpusFolder(dir);
      expect(read.chunks.map((c) => c.id).sort()).toEqual(['alias', 'inner/real', 'ok']);
      expect(JSON.stringify(read.chunks)).not.toContain('root:x');
      expect(read.skipped.outside_folder).toBe(2);
      expect(read.problems.sort()).toEqual([
        "elsewhere: a link to a file outside the corpus folder's real path: refused",
        "passwd.md: a link to a file outside the corpus folder's real path: refused",
      ]);
    });

    it('skips a file over maxFileBytes and files past maxCorpusBytes, and streams JSONL', async () => {
      const dir = folder();
      const line = (i: number) => JSON.stringify({ id: `c${i}`, text: `Chunk number ${i} of a long export file.` });
      writeFileSync(join(dir, 'big.jsonl'), Array.from({ length: 3000 }, (_, i) => line(i)).join('\n'));
      writeFileSync(join(dir, 'small.jsonl'), line(99_999));
      const size = statSync(join(dir, 'big.jsonl')).size;
      const capped = await readCorpusFolder(dir, { maxFileBytes: size - 1, maxCorpusBytes: 10 * size });
      expect(capped.chunks.map((c) => c.id)).toEqual(['ok', 'c99999']);
      expect(capped.problems).toEqual(['big.jsonl: larger than golden.maxFileBytes: skipped']);
      const whole = await readCorpusFolder(dir, { maxFileBytes: size, maxCorpusBytes: 10 * size });
      expect(whole.chunks).toHaveLength(3002);
      const budget = await readCorpusFolder(dir, { maxFileBytes: size, maxCorpusBytes: size + 10 });
      // Files in name order: big.jsonl fits the budget, ok.md and small.jsonl come after it.
      expect(budget.chunks).toHaveLength(3000);
      expect(budget.skipped.corpus_limit).toBe(2);
    });

    it('refuses front matter holding !!binary or another non-data value, by file and line, never the text', async () => {
      const dir = folder();
      writeFileSync(join(dir, 'bin.md'), '---\nid: b\nsection: !!binary aGVsbG8gSnVhbg==\n---\nText of the chunk.\n');
      writeFileSync(join(dir, 'set.md'), '---\nid: s\ntags: !!set {a, b}\n---\nText of the chunk.\n');
      const read = await readCorpusFolder(dir);
      expect(read.chunks.map((c) => c.id)).toEqual(['ok']);
      expect(read.problems).toEqual([
        'bin.md:3: front matter holds a value that is not text, a number or a list (a YAML tag such as !!binary)',
        'set.md:3: front matter holds a value that is not text, a number or a list (a YAML tag such as !!binary)',
      ]);
      expect(JSON.stringify(read)).not.toContain('aGVsbG8');
    });

    it('stops at once when its signal aborts', async () => {
      const dir = folder();
      const controller = new AbortController();
      controller.abort(new Error('interrupted'));
      await expect(
        readCorpusFolder(dir, { maxFileBytes: 1e6, maxCorpusBytes: 1e9, signal: controller.signal }),
      ).rejects.toThrow('interrupted');
    });
  });
});
