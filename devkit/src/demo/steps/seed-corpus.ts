import { seedDemo, type SeedDemoSummary } from '../../corpus/index.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';

const join = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(' · ');

const pct = (n: number, total: number) => (total === 0 ? '0 %' : `${Math.round((100 * n) / total)} %`);

const row = (label: string, value: string) => `${label.padEnd(17)} ${value}`;

export function describeSeed(summary: SeedDemoSummary): string[] {
  const e = summary.emitted;
  const lines = [
    row(
      'traces sent',
      `${e.total} of ${summary.traces.length}${summary.verified ? `, ${summary.verified.found} readable back through the API` : ''}`,
    ),
    row('by shape', join(e.byShape)),
    row('by variant', join(e.byVariant)),
    row(
      'by language',
      `es ${e.byLanguage.es} (${pct(e.byLanguage.es, e.total)}) · en ${e.byLanguage.en} (${pct(e.byLanguage.en, e.total)})`,
    ),
    row('by kind', join(e.byKind)),
    row('environments', join(e.byEnvironment)),
    row('personal data', `in ${e.withPii} traces (${join(e.byPiiKind)})`),
    row('time window', `${summary.window.from.toISOString()} → ${summary.window.to.toISOString()}`),
  ];
  if (summary.skipped.length > 0) {
    const reasons = [...new Set(summary.skipped.map((s) => s.reason))].join('; ');
    lines.push(row('not sent', `${summary.skipped.length} legacy-ingestion traces: ${reasons}`));
  }
  if (summary.ingestionErrors.length > 0)
    lines.push(
      row(
        'rejected',
        `${summary.ingestionErrors.length} ingestion events (first: ${summary.ingestionErrors[0]!.status} ${summary.ingestionErrors[0]!.message ?? ''})`,
      ),
    );
  if (summary.verified && summary.verified.missing.length > 0)
    lines.push(
      row(
        'missing',
        `${summary.verified.missing.length} sent traces are not readable: ${summary.verified.missing.slice(0, 3).join(', ')}…`,
      ),
    );
  const d = summary.dataset;
  if (d)
    lines.push(
      row(
        'golden dataset',
        `${d.name}: ${d.items} items (${join(d.byType)}; ${join(d.bySplit)}; ${join(d.byLanguage)})`,
      ),
    );
  return lines;
}

/** Seeds the demo traces and the golden dataset into the Langfuse stand-in. */
export const seedCorpusStep: DemoStep = {
  name: 'seed',
  title: 'Seed the demo corpus (support assistant traces through the Langfuse SDKs, golden dataset)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const summary = await seedDemo({
      langfuseUrl: env.langfuse.url,
      publicKey: env.langfuse.publicKey,
      secretKey: env.langfuse.secretKey,
      personality: env.personality,
      seed: env.seed,
      count: env.traces,
      now: env.now,
    });
    const sent = new Set(summary.traceIds);
    env.seeded = summary.traces.filter((t) => sent.has(t.id));
    const ok = summary.ingestionErrors.length === 0 && (summary.verified?.missing.length ?? 0) === 0;
    const { traces: _all, ...data } = summary;
    return { ok, lines: describeSeed(summary), data };
  },
};
