import { getMetric } from '../metrics/index.js';
import type { ExperimentResult } from './run.js';
import { cell, formatInterval, formatScore } from './report/index.js';

/** What `ragwatch experiment run` prints: the verdict, the numbers, and where the report is. */
export function formatRunSummary(result: ExperimentResult): string {
  const r = result.report;
  const lines = [
    `run ${result.runName} on dataset ${r.datasetName} (split ${r.split}): ${r.items.total} items, ${r.items.failed} failed`,
    r.gate
      ? `gate: ${r.gate.passed ? 'PASSED' : 'FAILED'} (judged on ${r.gate.judgedOn}, ${r.gate.decidedOn.items} items)`
      : 'gate: no verdict (incomplete run)',
    ...(r.gate?.lines ?? []).map((l) => `  ${l}`),
  ];
  for (const f of r.failures.rows)
    lines.push(
      `  failed: ${f.what} on ${f.count} item${f.count === 1 ? '' : 's'} (${Object.keys(f.kinds).join(', ')})`,
    );
  for (const metric of r.metrics) {
    const c = cell(r, metric);
    lines.push(
      `  ${getMetric(metric).label.padEnd(18)} ${formatScore(c?.summary.mean)} ${formatInterval(c?.summary.ci ?? null)} n=${c?.summary.n ?? 0}`,
    );
  }
  if (r.abstention) lines.push(`  abstention rate     ${formatScore(r.abstention.rate)} n=${r.abstention.n}`);
  if (r.noise)
    lines.push(
      `  ΔFaithfulness       ${formatScore(r.noise.deltaFaithfulness)}${r.noise.flagged ? ` (above ${r.noise.threshold})` : ''}`,
    );
  if (r.diagnosis) lines.push(`diagnosis: ${r.diagnosis.status} → ${r.diagnosis.action}`);
  if (r.comparison) {
    lines.push(
      r.comparison.regressions.length > 0
        ? `regressions against ${r.comparison.previousRun}: ${r.comparison.regressions.join(', ')}`
        : `no regression against ${r.comparison.previousRun}`,
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
