/**
 * The weekly report's judge section: who the judge was (model, vLLM version, prompt versions) and its drift on
 * the anchor set per metric, as Markdown lines and as HTML. The "judge changed" warning itself opens the report
 * and the gate verdict (see `judgeChangedWarning`).
 */
import type { MetricDrift } from './drift.js';
import type { JudgeCheck } from './judge-check.js';

type Section = Pick<JudgeCheck, 'identity' | 'drift' | 'driftNote' | 'anchorSet'>;

const STATUS: Record<MetricDrift['status'], string> = {
  changed: 'changed',
  inconclusive: 'inconclusive',
  unchanged: 'unchanged',
  not_estimable: 'not estimable',
};

function figure(m: MetricDrift): string {
  if (m.meanAbsoluteChange === null || !m.interval) return '—';
  return `${m.meanAbsoluteChange.toFixed(3)} [${m.interval.low.toFixed(3)}, ${m.interval.high.toFixed(3)}]`;
}

const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

function identityLine(s: Section): string {
  const id = s.identity;
  const root = id.modelRoot && id.modelRoot !== id.model ? ` (${id.modelRoot})` : '';
  return `Judge \`${id.model}\`${root}, vLLM ${id.vllmVersion ?? 'version not reported'}.`;
}

function rows(s: Section): string[][] {
  return (s.drift?.metrics ?? []).map((m) => [
    m.metric,
    STATUS[m.status],
    figure(m),
    signed(m.meanChange),
    `${m.paired} of ${m.anchors}`,
    String(m.changed),
  ]);
}

const HEAD = ['Metric', 'Drift', 'Mean |change| [95% CI]', 'Mean change', 'Anchors scored', 'Scored differently'];

export function judgeMarkdown(s: Section): string[] {
  const out = ['## The judge', '', identityLine(s), ''];
  if (!s.drift) {
    out.push(`Judge drift not measured: ${s.driftNote ?? 'no anchor set'}.`, '');
    return out;
  }
  out.push(
    `Anchor set ${s.drift.anchorSetVersion} re-scored before the items ran; tolerance ${s.drift.tolerance} ` +
      '(mean absolute change of the scores, paired bootstrap interval).',
    '',
  );
  out.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`);
  for (const r of rows(s)) out.push(`| ${r.join(' | ')} |`);
  out.push('');
  for (const m of s.drift.metrics) out.push(`- ${m.metric}: ${m.summary}`);
  if (s.drift.fingerprintChanges.length > 0) {
    out.push(`- Since the anchors were stored: ${s.drift.fingerprintChanges.join('; ')}`);
  }
  out.push('');
  return out;
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function judgeHtml(s: Section): string {
  const parts = ['<h2 id="judge">The judge</h2>', `<p>${esc(identityLine(s)).replace(/`/g, '')}</p>`];
  if (!s.drift) {
    parts.push(`<p id="drift">Judge drift not measured: ${esc(s.driftNote ?? 'no anchor set')}.</p>`);
    return parts.join('\n');
  }
  const head = HEAD.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows(s)
    .map((r) => `<tr>${r.map((c, i) => `<td${i > 1 ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`)
    .join('');
  parts.push(
    `<p class="meta">Anchor set ${esc(s.drift.anchorSetVersion)} re-scored before the items ran; tolerance ` +
      `${s.drift.tolerance}.</p>`,
    `<table id="drift"><tr>${head}</tr>${body}</table>`,
  );
  const notes = [
    ...s.drift.metrics.map((m) => `${m.metric}: ${m.summary}`),
    ...(s.drift.fingerprintChanges.length > 0
      ? [`Since the anchors were stored: ${s.drift.fingerprintChanges.join('; ')}`]
      : []),
  ];
  parts.push(`<ul>${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  return parts.join('\n');
}
