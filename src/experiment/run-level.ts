import type { MetricName } from '../metrics/index.js';
import type { RunScore } from '../langfuse/index.js';
import type { ExperimentReport } from './report/index.js';
import { GATE_SCORE, NOISE_DELTA_SCORE, scoreNameFor } from '../scores/index.js';

/** Scores on the dataset run: each metric's mean (over all items of the run), the abstention rate, ΔFaithfulness, the gate. */
export function runScoresFor(report: ExperimentReport, scorePrefix: string, abstentionScore: string): RunScore[] {
  const scores: RunScore[] = [];
  for (const metric of report.metrics as MetricName[]) {
    const cell = report.cells.find((c) => c.metric === metric && c.split === 'all' && c.stratum === 'all');
    if (cell?.summary.mean === null || cell?.summary.mean === undefined) continue;
    scores.push({
      name: scoreNameFor(scorePrefix, metric),
      value: cell.summary.mean,
      comment: `mean of ${cell.summary.n} items`,
      metadata: { source: 'ragwatch', n: cell.summary.n, ci: cell.summary.ci },
    });
  }
  if (report.abstention?.rate !== null && report.abstention?.rate !== undefined) {
    scores.push({
      name: abstentionScore,
      value: report.abstention.rate,
      comment: `abstention rate over ${report.abstention.n} adversarial items`,
      metadata: { source: 'ragwatch', n: report.abstention.n },
    });
  }
  if (report.noise?.deltaFaithfulness !== null && report.noise?.deltaFaithfulness !== undefined) {
    scores.push({
      name: NOISE_DELTA_SCORE,
      value: report.noise.deltaFaithfulness,
      comment: `faithfulness clean − noisy over ${report.noise.n} items${report.noise.flagged ? ` (above ${report.noise.threshold})` : ''}`,
      metadata: { source: 'ragwatch', flagged: report.noise.flagged },
    });
  }
  // 1 passed, 0 failed; a gate without enough evidence decided nothing, so no value is written for it (its
  // outcome is in the run's report and metadata), never a 0 that reads as a failure.
  const gate = report.gate;
  if (gate && gate.outcome !== 'not_enough_evidence') {
    const deciding = gate.deciding ? `: ${gate.deciding.line}` : '';
    scores.push({
      name: GATE_SCORE,
      value: gate.passed ? 1 : 0,
      comment: `gate ${gate.outcome} (rule ${gate.rule}, judged on ${gate.judgedOn})${deciding}`.slice(0, 500),
      metadata: {
        source: 'ragwatch',
        outcome: gate.outcome,
        rule: gate.rule,
        judgedOn: gate.judgedOn,
        items: gate.decidedOn.items,
      },
    });
  }
  return scores;
}
