import { getMetric } from '../../metrics/index.js';
import {
  cell,
  formatChange,
  formatInterval,
  formatScore,
  sentence,
  type ExperimentReport,
  type ReportSections,
} from './model.js';
import { comparisonRows, definitionChangeText, formatSigned } from './comparison.js';
import { outcomeLabel } from './gate-summary.js';
import { adversarialText, compareBasisText, decidedOnText, gateScopeText, incompleteText } from './markdown.js';
import { escapeXml as esc, metricBarsSvg, trendSvg } from './svg.js';
import { usageHtml } from './usage-view.js';

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:980px;color:#111827;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #e5e7eb;padding-bottom:.2rem}
.meta{color:#4b5563;font-size:.9rem}.verdict{display:inline-block;padding:.2rem .7rem;border-radius:4px;font-weight:700;color:#fff}
.pass{background:#059669}.fail{background:#dc2626}.inconclusive{background:#b45309}.note{background:#f3f4f6;padding:.5rem .8rem;border-radius:4px;font-size:.9rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}th,td{border:1px solid #e5e7eb;padding:.3rem .6rem;text-align:left}
th{background:#f9fafb}td.num{text-align:right;font-variant-numeric:tabular-nums}.regression{color:#dc2626;font-weight:700}
.improvement{color:#059669}svg text{font:12px system-ui,sans-serif;fill:#374151}svg .bar{fill:#60a5fa}svg .bar.below{fill:#f87171}
svg .whisker line{stroke:#111827;stroke-width:1.5}svg .threshold{stroke:#dc2626;stroke-width:2;stroke-dasharray:4 3}
svg .tick line{stroke:#e5e7eb}svg .nodata{fill:#9ca3af;font-style:italic}
`;

/** A self-contained HTML report: inline CSS and SVG, no script, no network request. */
export function renderHtml(report: ExperimentReport, sections: ReportSections = {}): string {
  const parts: string[] = [];
  const splitText = report.split === 'all' ? 'all items (dev and test)' : `the ${report.split} split only`;
  parts.push(`<h1>Golden-set report: ${esc(report.runName)}</h1>`);
  parts.push(
    `<p class="meta">Dataset <b>${esc(report.datasetName)}</b> · ${report.items.total} items · covers ${esc(splitText)} · ${esc(report.startedAt)} → ${esc(report.finishedAt)}<br>` +
      `Judge <code>${esc(report.run.judgeModel)}</code> · embeddings <code>${esc(report.run.embeddingsModel)}</code> · ragwatch ${esc(report.run.ragwatchVersion)} · config ${esc(report.run.configHash)} · seed ${report.run.seed}</p>`,
  );
  parts.push(
    '<p class="note">Test-split items appear in this report only in aggregate; per-item detail is shown for the dev split alone.</p>',
  );

  if (report.judge?.warning) {
    parts.push(
      `<p class="note" id="judge-changed"><b>The judge changed.</b> ${esc(sentence(report.judge.warning))}.</p>`,
    );
  }
  if (report.incomplete)
    parts.push(`<p class="note" id="incomplete"><b>Incomplete run:</b> ${esc(incompleteText(report.incomplete))}</p>`);
  const gate = report.gate;
  if (gate) {
    const css = gate.outcome === 'passed' ? 'pass' : gate.outcome === 'failed' ? 'fail' : 'inconclusive';
    parts.push(
      `<h2>Verdict</h2><p><span class="verdict ${css}" id="gate" data-outcome="${gate.outcome}">${outcomeLabel(gate.outcome)}</span> ${esc(gateScopeText(gate))}, decided on ${esc(decidedOnText(gate))}.</p>`,
    );
    if (gate.deciding) parts.push(`<p id="gate-deciding">Deciding: ${esc(gate.deciding.line)}.</p>`);
    if (gate.judgeChanged && gate.lines[0]) parts.push(`<ul><li>${esc(gate.lines[0])}</li></ul>`);
    parts.push(gateChecksHtml(gate));
  } else
    parts.push(
      '<h2>Verdict</h2><p id="gate">None: an incomplete run is not a regression, and it is never a later run’s baseline.</p>',
    );
  if (report.diagnosis) {
    parts.push(
      `<h2>Diagnosis</h2><p id="diagnosis"><b>${esc(report.diagnosis.status)}</b> (priority ${esc(report.diagnosis.priority)}): ${esc(report.diagnosis.action)}.</p>` +
        (report.diagnosis.adversarial
          ? `<p id="diagnosis-adversarial">${esc(adversarialText(report.diagnosis.adversarial))}</p>`
          : ''),
    );
  }

  if (sections.judge) parts.push(sections.judge.html);
  // An incomplete run has no verdict: its bars show every item that finished.
  const barsSplit = report.gate?.judgedOn ?? 'all';
  const judged = barsSplit === 'test' ? 'the test split' : 'all items';
  const why = report.gate ? ', the split the verdict is judged on,' : ' (no verdict: the run is incomplete)';
  parts.push(
    '<h2>Scores</h2>',
    `<p class="meta">Bars: the mean on ${judged}${why} with its 95% confidence interval and the threshold (dashed).</p>`,
    metricBarsSvg(report, barsSplit),
  );
  parts.push(scoresTable(report));
  parts.push(strataTable(report));

  parts.push(failuresHtml(report));
  if (report.abstention) {
    const a = report.abstention;
    parts.push(
      `<h2>Adversarial items: abstention</h2><p>The RAG said it lacks the information on <b>${a.rate === null ? '—' : `${(a.rate * 100).toFixed(1)}%`}</b> of ${a.n} adversarial items, 95% CI ${formatInterval(a.ci)}. These items are kept out of the metric means.</p>`,
    );
  }
  if (report.noise) {
    const n = report.noise;
    parts.push(
      `<h2>Noise sensitivity</h2><p>ΔFaithfulness (clean − noisy) <b class="${n.flagged ? 'regression' : ''}">${formatScore(n.deltaFaithfulness)}</b>, 95% CI ${formatInterval(n.ci)}, over ${n.n} items. ${n.flagged ? `Above ${n.threshold}: the prompt or the model is fragile under contaminated context.` : `Below the ${n.threshold} alarm.`}</p>`,
    );
  }
  if (report.comparison) parts.push(comparisonTable(report));
  const trend = trendSvg(report);
  if (trend) parts.push('<h2>Trend</h2>', trend);
  if (report.worstItems.length > 0) {
    const rows = report.worstItems
      .map(
        (w) =>
          `<tr><td>${esc(w.itemId)}</td><td>${esc(w.stratum)}</td><td>${esc(getMetric(w.metric).label)}</td><td class="num">${formatScore(w.value)}</td><td>${esc(w.reason)}</td></tr>`,
      )
      .join('');
    parts.push(
      `<h2>Worst dev items</h2><table id="worst"><tr><th>Item</th><th>Stratum</th><th>Metric</th><th>Score</th><th>Why</th></tr>${rows}</table>`,
    );
  }
  parts.push(usageHtml(report.usage));
  if (sections.calibration) parts.push(sections.calibration.html);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>ragwatch report ${esc(report.runName)}</title><style>${STYLE}</style></head>
<body>
${parts.join('\n')}
</body></html>
`;
}

function failuresHtml(report: ExperimentReport): string {
  const f = report.failures;
  if (f.rows.length === 0) return '<h2>Failures</h2><p id="failures">No item failed.</p>';
  const rows = f.rows
    .map((r) => {
      const kinds = Object.entries(r.kinds)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ');
      return `<tr><td>${esc(r.what)}</td><td class="num">${r.count}</td><td>${esc(kinds)}</td><td>${esc(r.devItems.join(', ') || '—')}</td><td class="num">${r.otherItems}</td></tr>`;
    })
    .join('');
  const head = `<p>${f.items} item${f.items === 1 ? '' : 's'} failed after retries: ${(f.share * 100).toFixed(1)}% of the items run (the run stops above ${(f.maxShare * 100).toFixed(1)}%). Each failure is that item’s only; its other results stand.</p>`;
  return `<h2>Failures</h2>${head}<table id="failures"><tr><th>What</th><th>Failed</th><th>Kinds</th><th>Dev items</th><th>Test items</th></tr>${rows}</table>`;
}

function scoresTable(report: ExperimentReport): string {
  const splits = [
    'all',
    ...Object.keys(report.items.bySplit)
      .filter((s) => s !== 'all')
      .sort(),
  ];
  const head = `<tr><th>Metric</th><th>Threshold</th>${splits.map((s) => `<th>${esc(s)}: mean [95% CI] (n)</th>`).join('')}</tr>`;
  const rows = report.metrics.map((metric) => {
    const cols = splits.map((split) => {
      const c = cell(report, metric, split);
      return `<td class="num">${c ? `${formatScore(c.summary.mean)} ${formatInterval(c.summary.ci)} (${c.summary.n}${c.failed ? `, ${c.failed} failed` : ''})` : '—'}</td>`;
    });
    const dir = getMetric(metric).higherIsBetter ? '' : ' (lower is better)';
    return `<tr><td>${esc(getMetric(metric).label)}${dir}</td><td class="num">${report.thresholds[metric] ?? '—'}</td>${cols.join('')}</tr>`;
  });
  return `<table id="scores">${head}${rows.join('')}</table>`;
}

function strataTable(report: ExperimentReport): string {
  const strata = Object.keys(report.items.byStratum).sort();
  if (strata.length === 0) return '';
  const head = `<tr><th>Metric</th>${strata.map((s) => `<th>${esc(s)}</th>`).join('')}</tr>`;
  const rows = report.metrics.map((metric) => {
    const cols = strata.map((stratum) => {
      const c = cell(report, metric, 'all', stratum);
      return `<td class="num">${c ? `${formatScore(c.summary.mean)} (${c.summary.n})` : '—'}</td>`;
    });
    return `<tr><td>${esc(getMetric(metric).label)}</td>${cols.join('')}</tr>`;
  });
  return `<h2>By stratum</h2><table id="strata">${head}${rows.join('')}</table>`;
}

/** The previous run against this one: both means and the paired per-item change, in one table. */
function comparisonTable(report: ExperimentReport): string {
  const previous = report.comparison!.previousRun;
  const rows = comparisonRows(report)
    .map((r) => {
      const flag = r.definitionChange
        ? esc(definitionChangeText(r.definitionChange))
        : r.flag
          ? `<span class="${r.flag}">${r.flag}</span>`
          : '—';
      const cells = [
        formatScore(r.previous),
        formatScore(r.current),
        formatChange(r.changePct),
        formatSigned(r.pairedDelta),
        formatInterval(r.ci),
        String(r.n),
      ];
      return `<tr><td>${esc(getMetric(r.metric).label)}</td>${cells.map((c) => `<td class="num">${c}</td>`).join('')}<td>${flag}</td></tr>`;
    })
    .join('');
  const head = ['Metric', esc(previous), 'This run', 'Change', 'Mean Δ (paired)', '95% CI', 'n', 'Flag']
    .map((h) => `<th>${h}</th>`)
    .join('');
  const basis = `<p id="comparison-basis">${esc(compareBasisText(report.comparison!.basis))}.</p>`;
  return `<h2>Change against ${esc(previous)}</h2>${basis}<table id="comparison"><tr>${head}</tr>${rows}</table>`;
}

function gateChecksHtml(gate: NonNullable<ExperimentReport['gate']>): string {
  const rows = gate.checks
    .map(
      (c) =>
        `<tr data-check="${esc(c.check)}" data-outcome="${c.outcome}"><td>${esc(c.check)}</td><td>${c.n}</td><td>${formatScore(c.value)}</td><td>${formatInterval(c.interval)}</td><td>${c.higherIsBetter ? '≥' : '≤'} ${c.threshold}</td><td>${esc(c.outcome.replace(/_/g, ' '))}${c.borderline ? ' (borderline)' : ''}</td></tr>`,
    )
    .join('');
  return `<table id="gate-checks"><tr><th>gated figure</th><th>n</th><th>value</th><th>95 % CI</th><th>threshold</th><th>outcome</th></tr>${rows}</table>`;
}
