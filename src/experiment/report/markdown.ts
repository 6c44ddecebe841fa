import { markdownCell } from '../../internal/index.js';
import { getMetric } from '../../metrics/index.js';
import { outcomeLabel } from './gate-summary.js';
import { usageMarkdown } from './usage-view.js';
import { comparisonRows, definitionChangeText, formatSigned } from './comparison.js';
import {
  cell,
  formatChange,
  formatInterval,
  formatScore,
  sentence,
  type ExperimentReport,
  type ReportSections,
} from './model.js';

/** The report as Markdown: what a person reads first, in a merge request or a chat message. */
export function renderMarkdown(report: ExperimentReport, sections: ReportSections = {}): string {
  const out: string[] = [];
  const splitText = report.split === 'all' ? 'all items (dev and test)' : `the ${report.split} split only`;
  out.push(`# Golden-set report: ${report.runName}`, '');
  out.push(
    `Dataset **${report.datasetName}**, ${report.items.total} items, covering ${splitText}. Run ${report.startedAt} → ${report.finishedAt}.`,
  );
  out.push(
    `Judge \`${report.run.judgeModel}\`, embeddings \`${report.run.embeddingsModel}\`, ragwatch ${report.run.ragwatchVersion}, config ${report.run.configHash}, seed ${report.run.seed}.`,
    '',
  );
  out.push(
    'Test-split items appear in this report only in aggregate; per-item detail is shown for the dev split alone.',
    '',
  );

  if (report.judge?.warning) out.push(`**The judge changed.** ${sentence(report.judge.warning)}.`, '');
  if (report.incomplete) out.push(`**Incomplete run:** ${incompleteText(report.incomplete)}`, '');
  const gate = report.gate;
  out.push(`## Verdict: ${gate ? outcomeLabel(gate.outcome) : 'none (incomplete run)'}`, '');
  if (gate) {
    out.push(`${gateScopeText(gate)}, decided on ${decidedOnText(gate)}.`);
    if (gate.deciding) out.push('', `Deciding: ${gate.deciding.line}.`);
    if (gate.judgeChanged && gate.lines[0]) out.push('', `- ${gate.lines[0]}`);
    out.push('', ...gateChecksTable(gate));
  } else out.push('No gate verdict: an incomplete run is not a regression, and it is never a later run’s baseline.');
  out.push('');

  if (report.diagnosis) {
    out.push('## Diagnosis (faithfulness × context recall, and the adversarial questions)', '');
    out.push(`**${report.diagnosis.status}** (priority ${report.diagnosis.priority}): ${report.diagnosis.action}.`, '');
    if (report.diagnosis.adversarial) out.push(adversarialText(report.diagnosis.adversarial), '');
  }

  if (sections.judge) out.push(...sections.judge.markdown);

  const splits = [
    'all',
    ...Object.keys(report.items.bySplit)
      .filter((s) => s !== 'all')
      .sort(),
  ];
  out.push('## Scores', '');
  out.push(`| Metric | Threshold | ${splits.map((s) => `${s}: mean [95% CI] (n)`).join(' | ')} |`);
  out.push(`|---|---|${splits.map(() => '---').join('|')}|`);
  for (const metric of report.metrics) {
    const threshold = report.thresholds[metric];
    const cols = splits.map((split) => {
      const c = cell(report, metric, split);
      if (!c) return '—';
      const extra = c.failed > 0 ? `, ${c.failed} failed` : '';
      return `${formatScore(c.summary.mean)} ${formatInterval(c.summary.ci)} (${c.summary.n}${extra})`;
    });
    const dir = getMetric(metric).higherIsBetter ? '' : ' (lower is better)';
    out.push(`| ${getMetric(metric).label}${dir} | ${threshold ?? '—'} | ${cols.join(' | ')} |`);
  }
  out.push('');

  const strata = Object.keys(report.items.byStratum).sort();
  if (strata.length > 0) {
    out.push('## By stratum', '');
    out.push(`| Metric | ${strata.map((s) => `${escapeCell(s)} (n)`).join(' | ')} |`);
    out.push(`|---|${strata.map(() => '---').join('|')}|`);
    for (const metric of report.metrics) {
      const cols = strata.map((stratum) => {
        const c = cell(report, metric, 'all', stratum);
        return c ? `${formatScore(c.summary.mean)} (${c.summary.n})` : '—';
      });
      out.push(`| ${getMetric(metric).label} | ${cols.join(' | ')} |`);
    }
    out.push('');
  }

  out.push('## Failures', '', ...failureLines(report), '');

  if (report.abstention) {
    const a = report.abstention;
    out.push('## Adversarial items: abstention', '');
    out.push(
      `The RAG said it lacks the information on ${formatRate(a.rate)} of ${a.n} adversarial items, 95% CI ${formatInterval(a.ci)}. These items are kept out of the metric means above.`,
      '',
    );
  }

  if (report.noise) {
    const n = report.noise;
    out.push('## Noise sensitivity (ΔFaithfulness = clean − noisy)', '');
    out.push(
      `ΔFaithfulness ${formatScore(n.deltaFaithfulness)}, 95% CI ${formatInterval(n.ci)}, over ${n.n} items.${n.flagged ? ` **Above ${n.threshold}: the prompt or the model is fragile under contaminated context.**` : ` Below the ${n.threshold} alarm.`}`,
      '',
    );
  }

  if (report.comparison) {
    const previous = report.comparison.previousRun;
    out.push(`## Change against ${previous}`, '', `${compareBasisText(report.comparison.basis)}.`, '');
    out.push(
      `| Metric | ${previous} | This run | Change | Mean Δ (paired) | 95% CI | n | Flag |`,
      '|---|---|---|---|---|---|---|---|',
    );
    for (const r of comparisonRows(report)) {
      const flag = r.definitionChange
        ? definitionChangeText(r.definitionChange)
        : r.flag === 'regression'
          ? '**regression**'
          : (r.flag ?? '—');
      out.push(
        `| ${getMetric(r.metric).label} | ${formatScore(r.previous)} | ${formatScore(r.current)} | ${formatChange(r.changePct)} | ${formatSigned(r.pairedDelta)} | ${formatInterval(r.ci)} | ${r.n} | ${flag} |`,
      );
    }
    out.push('');
  }

  if (report.trend.length > 1) {
    out.push('## Trend', '');
    out.push(`| Run | Date | ${report.metrics.map((m) => getMetric(m).label).join(' | ')} |`);
    out.push(`|---|---|${report.metrics.map(() => '---').join('|')}|`);
    for (const point of report.trend) {
      out.push(
        `| ${escapeCell(point.runName)} | ${point.date.slice(0, 10)} | ${report.metrics.map((m) => formatScore(point.means[m])).join(' | ')} |`,
      );
    }
    out.push('');
  }

  if (report.worstItems.length > 0) {
    out.push('## Worst dev items', '');
    out.push('| Item | Stratum | Metric | Score | Why |', '|---|---|---|---|---|');
    for (const w of report.worstItems) {
      out.push(
        `| ${escapeCell(w.itemId)} | ${escapeCell(w.stratum)} | ${getMetric(w.metric).label} | ${formatScore(w.value)} | ${escapeCell(w.reason)} |`,
      );
    }
    out.push('');
  }
  out.push(...usageMarkdown(report.usage), '');
  if (sections.calibration) out.push(...sections.calibration.markdown, '');
  return `${out.join('\n').trimEnd()}\n`;
}

function failureLines(report: ExperimentReport): string[] {
  const f = report.failures;
  const share = `${(f.share * 100).toFixed(1)}% of the items run (the run stops above ${(f.maxShare * 100).toFixed(1)}%)`;
  if (f.rows.length === 0) return ['No item failed.'];
  const lines = [
    `${f.items} item${f.items === 1 ? '' : 's'} failed after retries: ${share}. Each failure is that item’s only; its other results stand.`,
    '',
  ];
  lines.push('| What | Failed | Kinds | Dev items | Test items |', '|---|---|---|---|---|');
  for (const r of f.rows) {
    const kinds = Object.entries(r.kinds)
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ');
    const devItems = r.devItems.map(escapeCell).join(', ') || '—';
    lines.push(`| ${escapeCell(r.what)} | ${r.count} | ${escapeCell(kinds)} | ${devItems} | ${r.otherItems} |`);
  }
  return lines;
}

export function incompleteText(i: NonNullable<ExperimentReport['incomplete']>): string {
  return `${i.reason}. ${i.itemsNotRun} item${i.itemsNotRun === 1 ? '' : 's'} not run; the figures cover the items that finished.`;
}

/** The gate's rule, the evidence it needs and the split it was judged on, as a sentence's start. */
export function gateScopeText(gate: NonNullable<ExperimentReport['gate']>): string {
  const rule =
    gate.rule === 'interval'
      ? 'rule interval: a figure passes when its whole 95 % interval clears the threshold, fails when it all misses'
      : 'rule point: the mean against the threshold';
  const split = gate.judgedOn === 'test' ? 'the test split' : 'all items (the run has no test items)';
  const minN = [
    ...new Set(gate.checks.map((c) => `${c.check === 'abstention' ? 'abstention' : 'a metric'} ${c.minN}`)),
  ];
  return `Release gate (${rule}; fewest items to decide on: ${minN.join(', ')}) judged on ${split}`;
}

/** One row per gated figure: n, value, interval, threshold, outcome. */
export function gateChecksTable(gate: NonNullable<ExperimentReport['gate']>): string[] {
  const rows = gate.checks.map(
    (c) =>
      `| ${c.check} | ${c.n} | ${formatScore(c.value)} | ${formatInterval(c.interval)} | ${c.higherIsBetter ? '≥' : '≤'} ${c.threshold} | ${c.outcome.replace(/_/g, ' ')}${c.borderline ? ' (borderline)' : ''} |`,
  );
  return [
    '| gated figure | n | value | 95 % CI | threshold | outcome |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ];
}

export function decidedOnText(gate: NonNullable<ExperimentReport['gate']>): string {
  const parts = Object.entries(gate.decidedOn.perMetric).flatMap(([m, c]) =>
    c ? [`${m} ${c.scored}${c.failed > 0 ? ` (${c.failed} failed)` : ''}`] : [],
  );
  const abstention = gate.decidedOn.abstention !== undefined ? `; ${gate.decidedOn.abstention} adversarial items` : '';
  return `${gate.decidedOn.items} items${parts.length > 0 ? ` (scored: ${parts.join(', ')})` : ''}${abstention}`;
}

function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** Text from the dataset or the judge in a table cell: its HTML escaped (a renderer would run it), `|` too. */
function escapeCell(text: string): string {
  return markdownCell(text).slice(0, 240);
}

/** The adversarial questions beside the 2×2, one sentence. */
export function adversarialText(adversarial: 'declines' | 'answers'): string {
  return adversarial === 'declines'
    ? 'On false-premise and unanswerable questions the RAG declines as often as the gate asks.'
    : 'On false-premise and unanswerable questions the RAG answers with confidence instead of declining (the gate’s abstention check failed): a hallucination risk the 2×2 does not show.';
}

/** Which earlier run this one is compared with, and why that one. */
export function compareBasisText(basis: 'previous' | 'last-passed' | 'pinned' | undefined): string {
  return basis === 'last-passed'
    ? 'Compared with the latest earlier run whose gate passed (experiment.compareWith: last-passed), paired on the items both runs scored'
    : basis === 'pinned'
      ? 'Compared with the run named by experiment.compareWith (--compare-with), paired on the items both runs scored'
      : 'Compared with the latest earlier complete run (experiment.compareWith: previous), paired on the items both runs scored';
}
