import type { JudgeExchange, OneTraceResult } from './one-trace.js';
import type { TickPlan } from './plan.js';
import type { TickReport } from './run-types.js';

/** Plain-text renderings of online results for the terminal. Only anonymized text ever reaches them. */

const fixed = (n: number) => n.toFixed(3);

export function formatTickReport(report: TickReport, title = 'tick'): string {
  const lines: string[] = [];
  const window = report.window ? `${report.window.from} → ${report.window.to}${report.more ? ' (capped; more to catch up)' : ''}` : 'nothing settled since the last tick';
  lines.push(`${title}: ${report.outcome}${report.error ? ` (${report.error})` : ''}`);
  lines.push(`window: ${window}`);
  lines.push(
    `listed ${report.listed} · sampled ${report.sampled} · taken ${report.taken} · deferred ${report.deferred} · evaluated ${report.evaluated} · failed ${report.failed} · dead ${report.dead} · scores written ${report.scoresWritten}`,
  );
  const skipped = Object.entries(report.skipped);
  if (skipped.length > 0) lines.push(`skipped: ${skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  const means = Object.entries(report.means);
  if (means.length > 0) lines.push(`means: ${means.map(([metric, v]) => `${metric} ${fixed(v as number)}`).join(', ')}`);
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

export function formatPlan(plan: TickPlan): string {
  const lines: string[] = [];
  lines.push('dry run: nothing is evaluated or written');
  lines.push(`window: ${plan.window ? `${plan.window.from} → ${plan.window.to}${plan.more ? ' (capped)' : ''}` : 'nothing settled since the last tick'}`);
  lines.push(`listed ${plan.listed} · sampled ${plan.sampled}`);
  if (plan.planned.length > 0) lines.push('');
  for (const p of plan.planned) {
    const why = Number.isNaN(p.point) ? `ledger ${p.ledger}` : `u=${p.point.toFixed(6)} < rate ${p.rate}; ledger ${p.ledger}`;
    lines.push(`  ${p.traceId}  ${p.action.padEnd(15)} ${p.traceName ?? '(no name)'}  ${p.timestamp}  ${why}`);
  }
  return `${lines.join('\n')}\n`;
}

export function formatOneTrace(result: OneTraceResult, exchanges: JudgeExchange[], dryRun: boolean): string {
  if (!result.found) return `trace ${result.traceId}: not found in Langfuse (or not readable yet)\n`;
  const lines: string[] = [];
  lines.push(`trace ${result.traceId}  name=${result.trace?.name ?? '(none)'}  timestamp=${result.trace?.timestamp}  environment=${result.trace?.environment}`);
  if (result.view) {
    const s = result.view.sample;
    lines.push(`extracted (${result.view.shape}); ${result.view.entities} personal-data entities replaced; this is what the judge is given:`);
    lines.push(`  question: ${s.question}`);
    lines.push(`  answer:   ${s.answer}`);
    s.contexts.forEach((c, i) => lines.push(`  context[${i + 1}]: ${c}`));
  }
  const outcome = result.outcome;
  if (outcome?.kind === 'skipped') lines.push(`skipped: ${outcome.reason}`);
  if (outcome?.kind === 'failed') lines.push(`failed: ${outcome.failure.code}`);
  if (outcome?.kind === 'done') {
    for (const s of outcome.scored) lines.push(`score ${s.metric} = ${fixed(s.value)}`);
    for (const m of outcome.notScorable) lines.push(`score ${m}: not scorable (no score written)`);
    lines.push(dryRun ? 'dry run: no score written' : `written: ${outcome.scoreIds.length} score(s) (${outcome.scoreIds.join(', ')})`);
  }
  if (exchanges.length > 0) {
    lines.push('', `judge requests (${exchanges.length}):`);
    for (const e of exchanges) {
      lines.push(`--- ${e.name}`);
      for (const m of e.messages) lines.push(`[${m.role}] ${m.content}`);
    }
  }
  if (result.ledger) lines.push('', `ledger: ${result.ledger.status}${result.ledger.reason ? ` (${result.ledger.reason})` : ''}, attempts ${result.ledger.attempts}`);
  return `${lines.join('\n')}\n`;
}
