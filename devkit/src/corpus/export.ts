import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWLEDGE } from './knowledge.js';
import type { KnowledgeChunk } from './types.js';

/**
 * Internal notes that an ingestion job swept in with the documentation: they name customers and their contact
 * details, so the golden-set builder must never seed a question from them.
 */
export const PERSONAL_NOTES: readonly KnowledgeChunk[] = [
  {
    id: 'es-escalado-nota-1',
    lang: 'es',
    topic: 'support',
    source: 'kb/es/soporte/notas-internas.md',
    title: 'Nota interna de escalado',
    text: 'Escalado a segundo nivel: la clienta Laura Gómez Ruiz (laura.gomez.ruiz@gmail.com, teléfono 612 345 678) tiene un Lumora Hub que se reinicia cada noche desde la actualización 4.2; se le ha enviado una unidad de sustitución a su domicilio y se le devolverá el importe del envío a su IBAN ES91 2100 0418 4502 0005 1332.',
  },
  {
    id: 'en-escalation-note-1',
    lang: 'en',
    topic: 'support',
    source: 'kb/en/support/internal-notes.md',
    title: 'Internal escalation note',
    text: 'Escalated to tier 2: customer James Whitaker (james.whitaker@outlook.com, phone +44 7700 900123) reports that his Lumora Cam Outdoor drops off Wi-Fi every evening since firmware 4.2; a replacement unit was sent to his home address and the shipping cost will be refunded to his card.',
  },
];

/**
 * The demo knowledge base as a team's ingestion would export it for `ragwatch golden build --corpus`: one JSONL
 * file per language, one chunk per line with its id, text and metadata (source document, position in it, title,
 * section, language), the internal notes above included.
 */
export function corpusExportLines(
  chunks: readonly KnowledgeChunk[] = [...KNOWLEDGE, ...PERSONAL_NOTES],
): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const positions = new Map<string, number>();
  for (const chunk of chunks) {
    const position = positions.get(chunk.source) ?? 0;
    positions.set(chunk.source, position + 1);
    const file = `chunks-${chunk.lang}.jsonl`;
    const line = JSON.stringify({
      id: chunk.id,
      text: chunk.text,
      metadata: { document: chunk.source, position, title: chunk.title, section: chunk.topic, language: chunk.lang },
    });
    files.set(file, [...(files.get(file) ?? []), line]);
  }
  return files;
}

/** Writes the export into `dir` (created if needed) and returns the files written. */
export function writeCorpusExport(dir: string, chunks?: readonly KnowledgeChunk[]): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, lines] of corpusExportLines(chunks)) {
    const path = join(dir, file);
    writeFileSync(path, `${lines.join('\n')}\n`);
    written.push(path);
  }
  return written;
}
