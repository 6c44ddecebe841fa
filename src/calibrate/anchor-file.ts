/**
 * The judge drift anchor set on disk (`calibrate.anchors.path`): a fixed, versioned list of samples — already
 * anonymized, so the judge sees identical inputs every week — with the scores the judge gave them when the set
 * was built and the judge's fingerprint then. The version is a hash of the samples: another set of samples is
 * another version, and re-scores of one version are never compared with another's.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { AnchorScore, AnchorSet } from './drift.js';
import type { JudgeFingerprint } from './fingerprint.js';

export const ANCHOR_FILE_KIND = 'ragwatch-judge-anchors';

const sampleSchema = z
  .object({
    id: z.string().min(1),
    question: z.string(),
    answer: z.string(),
    contexts: z.array(z.string()),
    language: z.enum(['es', 'en']).nullable(),
    /** Per metric, the stored score (null: not scorable then). */
    scores: z.record(z.string(), z.number().min(0).max(1).nullable()),
  })
  .strict();

const fileSchema = z
  .object({
    kind: z.literal(ANCHOR_FILE_KIND),
    version: z.string().min(1),
    createdAt: z.string(),
    /** Where the samples came from: a golden dataset, or a file the team supplied. */
    source: z.string(),
    metrics: z.array(z.string()).min(1),
    judge: z.object({
      model: z.string(),
      vllmVersion: z.string().nullable(),
      promptVersions: z.record(z.string(), z.string()),
    }),
    anchors: z.array(sampleSchema),
  })
  .strict();

export type AnchorSample = z.infer<typeof sampleSchema>;
export type AnchorFile = z.infer<typeof fileSchema>;

/** The version of a set of samples: what the judge is shown, not what it said. */
export function anchorSetVersion(samples: ReadonlyArray<Omit<AnchorSample, 'scores'>>): string {
  const hash = createHash('sha256');
  for (const s of [...samples].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    hash.update(JSON.stringify([s.id, s.question, s.answer, s.contexts, s.language]));
  }
  return `anchors-${hash.digest('hex').slice(0, 12)}`;
}

export class AnchorFileError extends Error {
  override name = 'AnchorFileError';
}

export async function readAnchorFile(path: string): Promise<AnchorFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new AnchorFileError(
      `calibrate.anchors.path: ${path} ${why} (build it with ragwatch calibrate anchors build)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AnchorFileError(`calibrate.anchors.path: ${path} is not JSON`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AnchorFileError(
      `calibrate.anchors.path: ${path}: ${issue.path.join('.') || 'the file'}: ${issue.message}`,
    );
  }
  const file = parsed.data;
  if (anchorSetVersion(file.anchors) !== file.version) {
    throw new AnchorFileError(
      `calibrate.anchors.path: ${path}: its samples do not make version ${file.version}; ` +
        'an edited anchor set is a new one: build it again',
    );
  }
  return file;
}

/** Written whole to a temporary file and renamed: a reader never sees half a set. */
export async function writeAnchorFile(path: string, file: AnchorFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(file, null, 2)}\n`);
  await rename(tmp, path);
}

/** The stored scores as `judgeDrift` reads them. */
export function storedAnchorSet(file: AnchorFile): AnchorSet {
  const scores: AnchorScore[] = file.anchors.flatMap((a) =>
    file.metrics
      .filter((m) => m in a.scores)
      .map((metric) => ({ anchorId: a.id, metric, score: a.scores[metric] ?? null })),
  );
  return { version: file.version, scores, judge: file.judge as JudgeFingerprint };
}
