import { getMetric } from '../metrics/index.js';
import type { ExperimentResult } from './run.js';
import { cell, formatInterval, formatScore, outcomeLabel } from './report/index.js';

/**
 * What `ragwatch experiment run` prints: the verdict (which figure decided it, on which split and how many items),
 * every figure with its split, n and 95 % interval, and where the report is.
 */
export function formatRunSummary(result: ExperimentResult): string {
  const r = result.report;
  const g = r.gate;
  const split = (s: string) => (s === 'all' ? 'all items' : `${s} split`);
  const lines = [
    `run ${result.runName} on dataset ${r.datasetName} (split ${r.split}): ${r.items.total} items, ${r.items.failed} failed`,
    `gate: ${outcomeLabel(g.outcome)} (rule ${g.rule}, judged on the ${split(g.judgedOn)}, ${g.decidedOn.items} items)`,
    ...(g.deciding ? [`  deciding: ${g.deciding.line}`] : []),
    ...g.lines.filter((l) => l !== g.deciding?.line).map((l) => `  ${l}`),
  ];
  for (const f of r.failures.rows)
    lines.push(
      `  failed: ${f.what} on ${f.count} item${f.count === 1 ? '' : 's'} (${Object.keys(f.kinds).join(', ')})`,
    );
  lines.push('scores (mean, 95 % CI, n):');
  const splits = [...new Set(['all', g.judgedOn])];
  for (const metric of r.metrics) {
    const parts = splits.map((s) => {
      const c = cell(r, metric, s);
      return `${split(s)} ${formatScore(c?.summary.mean)} ${formatInterval(c?.summary.ci ?? null)} n=${c?.summary.n ?? 0}`;
    });
    lines.push(`  ${getMetric(metric).label.padEnd(18)} ${parts.join(' · ')}`);
  }
  if (r.abstention)
    lines.push(
      `  ${'abstention rate'.padEnd(18)} all adversarial items ${formatScore(r.abstention.rate)} ${formatInterval(r.abstention.ci)} n=${r.abstention.n}`,
    );
  if (r.noise)
    lines.push(
      `  ${'ΔFaithfulness'.padEnd(18)} all items ${formatScore(r.noise.deltaFaithfulness)} ${formatInterval(r.noise.ci)} n=${r.noise.n}` +
        ` (faithfulness clean − with distractor chunks added; above ${r.noise.threshold} the generation is misled by` +
        ` irrelevant context${r.noise.flagged ? ': ABOVE' : ''}; not RAGAS's noise sensitivity)`,
    );
  if (r.diagnosis) lines.push(`diagnosis (${split(g.judgedOn)}): ${r.diagnosis.status} → ${r.diagnosis.action}`);
  if (r.comparison) {
    const against = `against ${r.comparison.previousRun}${r.comparison.basis ? ` (${r.comparison.basis})` : ''}`;
    lines.push(
      r.comparison.regressions.length > 0
        ? `regressions ${against}, paired on the items both runs scored: ${r.comparison.regressions.join(', ')}`
        : `no regression ${against}, paired on the items both runs scored`,
    );
  }
  lines.push(
    `report: ${result.files.html}`,
    `        ${result.files.markdown}`,
    `        ${result.files.json}`,
    `link:   ${result.reportUrl}`,
  );
  return `${lines.join('\n')}\n`;
}
