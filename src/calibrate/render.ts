/**
 * The calibration section as Markdown lines and as HTML: per metric a table of cells (all, per language, per
 * stratum) with every agreement figure, its 95 % interval and n, the annotations that would halve the intervals,
 * the pass shares κ must be read beside, then the worst disagreements with both reasons.
 */
import { markdownCell, markdownText, withoutControls } from '../internal/index.js';
import type { AgreementFigure } from './agreement.js';
import type { Disagreement } from './disagreements.js';
import type { CalibrationSummary } from './report.js';
import type { AgreementStatistic } from './statistics.js';
import type { AgreementCell } from './table.js';

/** The figures the tables show, in order; the quadratic κ is in the JSON. */
export const SHOWN: readonly AgreementStatistic[] = [
  'spearman',
  'kendall_tau_b',
  'mae',
  'kappa',
  'weighted_kappa_linear',
];
const HEAD: Record<string, string> = {
  spearman: 'ρ',
  kendall_tau_b: 'τ-b',
  mae: 'MAE',
  kappa: 'κ pass/fail',
  weighted_kappa_linear: 'κw 3 levels',
};

const fixed = (v: number) => v.toFixed(2);
const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)} %`);

export function figureText(f: AgreementFigure | undefined): string {
  if (!f) return '—';
  if (!f.estimable) return 'n/e';
  const ci = f.interval ? `[${fixed(f.interval.low)}, ${fixed(f.interval.high)}]` : '[—]';
  return `${fixed(f.value)} ${ci}`;
}

export function cellLabel(c: Pick<AgreementCell, 'language' | 'stratum'>): string {
  if (c.language === null && c.stratum === null) return 'all';
  return [c.language, c.stratum].filter((x) => x !== null).join(' · ');
}

/** Annotations beyond n that halve the cell's intervals (3n), or — when no figure has an interval. */
export function halveText(c: AgreementCell): string {
  const more = c.figures.find((f) => f.estimable && f.moreToHalveWidth !== null);
  return more && more.estimable ? `+${more.moreToHalveWidth}` : '—';
}

/**
 * The figures a metric's table shows as n/e, in one line: each reason once, followed by the cells it applies to
 * (and the figures, when not all of a cell's are), so a breakdown into many one-pair cells stays one line.
 */
export function notEstimableLine(cells: readonly AgreementCell[]): string | null {
  const byReason = new Map<string, string[]>();
  for (const c of cells) {
    const perReason = new Map<string, AgreementStatistic[]>();
    for (const f of c.figures) {
      if (f.estimable || !SHOWN.includes(f.statistic)) continue;
      perReason.set(f.reason, [...(perReason.get(f.reason) ?? []), f.statistic]);
    }
    for (const [reason, statistics] of perReason) {
      const which = statistics.length === SHOWN.length ? '' : ` (${statistics.map((s) => HEAD[s]).join(', ')})`;
      byReason.set(reason, [...(byReason.get(reason) ?? []), `${cellLabel(c)}${which}`]);
    }
  }
  if (byReason.size === 0) return null;
  // The reason that covers most cells first (usually too few pairs in a breakdown's cells).
  const parts = [...byReason]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, where]) => `${reason} — ${where.join(', ')}`);
  return `n/e, not estimable: ${parts.join('; ')}`;
}

function disagreementRow(d: Disagreement): string[] {
  const where = d.origin === 'online' ? `online · ${d.traceName}` : `golden ${d.split} · ${d.stratum}`;
  return [
    d.traceId,
    where,
    d.language,
    `${d.judge.toFixed(2)} (${d.judgeLevel})`,
    `${d.human.toFixed(2)} (${d.humanLevel})`,
    d.judgeReason ?? '—',
    d.humanComment ?? '—',
  ];
}

const DISAGREEMENT_HEAD = ['Trace', 'Where', 'Lang', 'Judge', 'Person', "Judge's reason", "Person's comment"];

export function calibrationMarkdown(summary: CalibrationSummary, level = '##'): string[] {
  const out: string[] = [`${level} Judge agreement with people`, ''];
  const cells = summary.table.cells;
  const window = `${summary.window.from.slice(0, 10)} → ${summary.window.to.slice(0, 10)}`;
  out.push(
    `People's scores (\`human-…\`, source ANNOTATION) against ragwatch's on the same traces, ${window}: ` +
      `${summary.humanScores} annotations, ${summary.humanScores - summary.unpaired} paired with a judge score. ` +
      `95 % seeded bootstrap intervals (${summary.table.bootstrap.resamples} resamples); κ pass/fail at each ` +
      'metric\'s gate threshold; "to halve": more annotations that would halve the intervals\' width.',
    '',
  );
  if (cells.length === 0) {
    const how = `run \`ragwatch calibrate enqueue\` and annotate in the "${summary.queue}" queue`;
    out.push(`No annotated traces yet: ${how}.`, '');
    return out;
  }
  for (const metric of [...new Set(cells.map((c) => c.metric))]) {
    const mine = cells.filter((c) => c.metric === metric);
    out.push(`**${markdownText(metric)}** (threshold ${mine[0]!.threshold})`, '');
    out.push(`| Cell | n | ${SHOWN.map((s) => HEAD[s]).join(' | ')} | Pass: judge / people | To halve |`);
    out.push(`|---|---|${SHOWN.map(() => '---').join('|')}|---|---|`);
    for (const c of mine) {
      const figures = SHOWN.map((s) => figureText(c.figures.find((f) => f.statistic === s)));
      const shares = `${pct(c.judgePassShare)} / ${pct(c.humanPassShare)}`;
      out.push(`| ${markdownCell(cellLabel(c))} | ${c.n} | ${figures.join(' | ')} | ${shares} | ${halveText(c)} |`);
    }
    out.push('');
    const folded = notEstimableLine(mine);
    if (folded) out.push(`- ${markdownText(folded)}`, '');
  }
  for (const list of summary.disagreements) {
    if (list.worst.length === 0 && list.heldBack === 0) continue;
    const held = `online and dev split only; ${list.heldBack} test-split held back`;
    out.push(`**Worst disagreements: ${markdownText(list.metric)}** (${held})`);
    out.push('');
    if (list.worst.length === 0) {
      out.push('None of half a level or more.', '');
      continue;
    }
    out.push(`| ${DISAGREEMENT_HEAD.join(' | ')} |`, `|${DISAGREEMENT_HEAD.map(() => '---').join('|')}|`);
    for (const d of list.worst) out.push(`| ${disagreementRow(d).map(markdownCell).join(' | ')} |`);
    out.push('');
  }
  for (const e of summary.table.excluded) out.push(`- ${e.count} pair(s) of ${e.metric ?? '?'} left out: ${e.reason}`);
  return out;
}

const esc = (s: string) =>
  withoutControls(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export function calibrationHtml(summary: CalibrationSummary): string {
  const parts = ['<h2 id="calibration">Judge agreement with people</h2>'];
  const cells = summary.table.cells;
  parts.push(
    `<p class="meta">${summary.humanScores} annotations, ${summary.humanScores - summary.unpaired} paired with a ` +
      `judge score (${esc(summary.window.from.slice(0, 10))} → ${esc(summary.window.to.slice(0, 10))}); 95 % ` +
      'bootstrap intervals; κ pass/fail at the gate threshold; “to halve”: more annotations that would halve them.</p>',
  );
  if (cells.length === 0) {
    parts.push(`<p>No annotated traces yet: annotate in the “${esc(summary.queue)}” queue.</p>`);
    return parts.join('\n');
  }
  for (const metric of [...new Set(cells.map((c) => c.metric))]) {
    const mine = cells.filter((c) => c.metric === metric);
    const head = ['Cell', 'n', ...SHOWN.map((s) => HEAD[s]!), 'Pass: judge / people', 'To halve'];
    const rows = mine.map((c) => {
      const tds = [
        `<td>${esc(cellLabel(c))}</td>`,
        `<td class="num">${c.n}</td>`,
        ...SHOWN.map((s) => `<td class="num">${esc(figureText(c.figures.find((f) => f.statistic === s)))}</td>`),
        `<td class="num">${pct(c.judgePassShare)} / ${pct(c.humanPassShare)}</td>`,
        `<td class="num">${esc(halveText(c))}</td>`,
      ];
      return `<tr>${tds.join('')}</tr>`;
    });
    parts.push(`<h3>${esc(metric)} (threshold ${mine[0]!.threshold})</h3>`);
    const ths = head.map((h) => `<th>${esc(h)}</th>`).join('');
    parts.push(`<table class="agreement"><tr>${ths}</tr>${rows.join('')}</table>`);
    const folded = notEstimableLine(mine);
    if (folded) parts.push(`<p class="meta">${esc(folded)}</p>`);
  }
  for (const list of summary.disagreements) {
    if (list.worst.length === 0) continue;
    const rows = list.worst.map(
      (d) =>
        `<tr>${disagreementRow(d)
          .map((c) => `<td>${esc(c)}</td>`)
          .join('')}</tr>`,
    );
    const head = DISAGREEMENT_HEAD.map((h) => `<th>${esc(h)}</th>`).join('');
    parts.push(`<h3>Worst disagreements: ${esc(list.metric)}</h3>`);
    const held = `Online traces and the dev split only; ${list.heldBack} test-split pairs held back.`;
    parts.push(`<p class="meta">${held}</p>`);
    parts.push(`<table class="disagreements"><tr>${head}</tr>${rows.join('')}</table>`);
  }
  return parts.join('\n');
}
