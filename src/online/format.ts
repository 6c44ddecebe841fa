import { PLAN_COUNTS, type TickPlan } from './plan.js';
import type { TickReport } from './run-types.js';

/** Plain-text renderings of online results for the terminal. Only anonymized text ever reaches them. */

const fixed = (n: number) => n.toFixed(3);

/** Why a run ended as it did, in a few words: the failure code, or how many traces failed. */
export function outcomeReason(report: Pick<TickReport, 'outcome' | 'failed' | 'error'>): string | undefined {
  if (report.outcome === 'failed')
    return `${report.failed} trace${report.failed === 1 ? '' : 's'} failed, none evaluated`;
  return report.error;
}

export function formatTickReport(report: TickReport, title = 'tick'): string {
  const lines: string[] = [];
  const window = report.window
    ? `${report.window.from} → ${report.window.to}${report.more ? ' (capped; more to catch up)' : ''}`
    : 'nothing settled since the last tick';
  const why = outcomeReason(report);
  lines.push(`${title}: ${report.outcome}${why ? ` (${why})` : ''}`);
  lines.push(`window: ${window}`);
  lines.push(
    `listed ${report.listed} · sampled ${report.sampled} · taken ${report.taken} · deferred ${report.deferred} · evaluated ${report.evaluated} · failed ${report.failed} · dead ${report.dead} · scores written ${report.scoresWritten}`,
  );
  const skipped = Object.entries(report.skipped);
  if (skipped.length > 0) lines.push(`skipped: ${skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  if (report.excluded > 0) lines.push(excludedLine(report.excluded));
  const means = Object.entries(report.means);
  if (means.length > 0)
    lines.push(`means: ${means.map(([metric, v]) => `${metric} ${fixed(v as number)}`).join(', ')}`);
  if (report.traces.length > 0) {
    lines.push('');
    for (const t of [...report.traces].sort((a, b) => a.traceId.localeCompare(b.traceId))) {
      const scores = t.scores.map((s) => `${s.metric}=${fixed(s.value)}`).join(' ');
      const notScorable = t.notScorable.length > 0 ? ` not_scorable: ${t.notScorable.join(',')}` : '';
      const detail = t.reason ? ` ${t.reason}` : '';
      lines.push(`  ${t.traceId}  ${t.status}${detail}${scores ? `  ${scores}` : ''}${notScorable}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function excludedLine(n: number): string {
  return `excluded: ${n} trace${n === 1 ? '' : 's'} with a tag of online.filters.excludeTags (the weekly experiment's traffic by default), not listed`;
}

export function formatPlan(plan: TickPlan): string {
  const lines: string[] = [];
  lines.push('dry run: nothing is evaluated or written');
  const windows = plan.windows === 1 ? '1 window' : `${plan.windows} windows`;
  lines.push(
    `window: ${plan.window ? `${plan.window.from} → ${plan.window.to} (${windows})` : 'nothing settled since the last tick'}`,
  );
  const skipped = Object.entries(plan.skipped);
  const skips = skipped.reduce((n, [, count]) => n + count, 0);
  const byReason = skipped.map(([reason, n]) => `${reason} ${n}`).join(', ');
  lines.push(
    `listed ${plan.listed} · sampled ${plan.sampled} · taken ${plan.taken} · deferred ${plan.deferred} · ` +
      `evaluate ${plan.evaluate} · skip ${skips}${byReason ? ` (${byReason})` : ''}`,
  );
  if (plan.excluded > 0) lines.push(excludedLine(plan.excluded));
  if (plan.planned.length > 0) lines.push('');
  for (const p of plan.planned) {
    const why = Number.isNaN(p.point)
      ? `ledger ${p.ledger}`
      : `u=${p.point.toFixed(6)} < rate ${p.rate}; ledger ${p.ledger}`;
    const action = p.reason ? `${p.action} ${p.reason}` : p.action;
    lines.push(`  ${p.traceId}  ${action.padEnd(15)} ${p.traceName ?? '(no name)'}  ${p.timestamp}  ${why}`);
  }
  const counts: Record<string, number> = {
    listed: plan.listed,
    sampled: plan.sampled,
    taken: plan.taken,
    deferred: plan.deferred,
    evaluate: plan.evaluate,
    skip: skips,
  };
  const width = String(Math.max(...Object.values(counts))).length;
  lines.push('');
  for (const [label, what] of PLAN_COUNTS) {
    const extra = label === 'skip' && byReason ? `: ${byReason}` : '';
    lines.push(`  ${label.padEnd(8)} ${String(counts[label]).padStart(width)}  ${what}${extra}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The counts of `sample --once --dry-run`, one line each, for `sample --help`. */
export function planCountsHelp(): string {
  return [
    '',
    'What the counts of --once --dry-run mean (a tick reports them as listed, sampled, taken, deferred, evaluated, skipped):',
    ...PLAN_COUNTS.map(([label, what]) => `  ${label.padEnd(8)}  ${what}`),
  ].join('\n');
}
