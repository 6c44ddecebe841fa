/**
 * The release gate's verdict of a complete run, from the run's outcomes: the evidence per gated figure on the gate
 * split (each gated metric's scored items, the abstention rate of the split's adversarial items) decided by
 * `decideGate`, and the lines the report, the summary and the run score print.
 */
import { getMetric, type MetricName, type MetricResult, type Thresholds } from '../../metrics/index.js';
import { decideGate, type GateEvidence, type GateRule } from '../gate.js';
import type { ReportCell, GateSummary, JudgeSection } from './model.js';
import { summarizeShare } from '../stats.js';

/** `experiment.gate`: the rule, the evidence it needs, the abstention floor (null: not gated). */
export interface GateConfig {
  rule: GateRule;
  minItems: number;
  minAbstention: number | null;
  minAbstentionItems: number;
}

export const DEFAULT_GATE: GateConfig = { rule: 'point', minItems: 30, minAbstention: 0.8, minAbstentionItems: 10 };

/** What the gate reads of an item's outcome (report/build.ts's ItemOutcome). */
interface ItemOutcome {
  split: string;
  adversarial: boolean;
  results: readonly MetricResult[];
  abstained?: boolean | null;
  targetError?: string;
}

export interface GateInput {
  outcomes: readonly ItemOutcome[];
  cells: readonly ReportCell[];
  metrics: readonly MetricName[];
  thresholds: Thresholds;
  gate: GateConfig;
  judge: JudgeSection | null | undefined;
}

export function gateSummary(input: GateInput): GateSummary {
  const scored = input.outcomes.filter((o) => !o.adversarial);
  const judgedOn: 'test' | 'all' = input.outcomes.some((o) => o.split === 'test') ? 'test' : 'all';
  const onSplit = (o: ItemOutcome) => judgedOn === 'all' || o.split === judgedOn;
  const judgedItems = scored.filter(onSplit);

  const evidence: GateEvidence[] = [];
  const values: Partial<Record<MetricName, number>> = {};
  const decidedOn: GateSummary['decidedOn'] = { items: judgedItems.length, perMetric: {} };
  for (const metric of input.metrics) {
    const threshold = input.thresholds[metric];
    if (threshold === undefined) continue;
    const cell = input.cells.find((c) => c.metric === metric && c.split === judgedOn && c.stratum === 'all');
    const summary = cell?.summary ?? { n: 0, mean: null, ci: null };
    if (summary.mean !== null) values[metric] = summary.mean;
    evidence.push({
      check: metric,
      threshold,
      higherIsBetter: getMetric(metric).higherIsBetter,
      n: summary.n,
      value: summary.mean,
      interval: summary.ci,
      minN: input.gate.minItems,
    });
    const results = judgedItems.map((o) => o.results.find((r) => r.metric === metric));
    decidedOn.perMetric[metric] = {
      scored: results.filter((r) => r?.status === 'scored').length,
      notScorable: results.filter((r) => r?.status === 'not_scorable').length,
      failed:
        results.filter((r) => r?.status === 'failed').length +
        judgedItems.filter((o) => o.targetError !== undefined).length,
    };
  }
  // Abstention is gated when the golden set has adversarial items at all; none on the gate split is no evidence.
  const adversarial = input.outcomes.filter((o) => o.adversarial);
  if (input.gate.minAbstention !== null && adversarial.length > 0) {
    const judged = adversarial.filter((o) => onSplit(o) && typeof o.abstained === 'boolean');
    const share = summarizeShare(judged.filter((o) => o.abstained).length, judged.length);
    evidence.push({
      check: 'abstention',
      threshold: input.gate.minAbstention,
      higherIsBetter: true,
      n: share.n,
      value: share.mean,
      interval: share.ci,
      minN: input.gate.minAbstentionItems,
    });
    decidedOn.abstention = judged.length;
  }

  const decision = decideGate(evidence, input.gate.rule);
  const warning = input.judge?.warning ?? null;
  const notable = decision.checks.filter((c) => c.outcome !== 'passed' || c.borderline).map((c) => c.line);
  return {
    outcome: decision.outcome,
    passed: decision.outcome === 'passed',
    rule: decision.rule,
    judgeChanged: warning !== null,
    judgedOn,
    checks: decision.checks,
    deciding: decision.deciding,
    lines: warning ? [`the judge changed: ${warning}`, ...notable] : notable,
    values,
    decidedOn,
  };
}

/** What the verdict is called where people read it. */
export function outcomeLabel(outcome: GateSummary['outcome']): string {
  return outcome === 'passed' ? 'PASSED' : outcome === 'failed' ? 'FAILED' : 'NOT ENOUGH EVIDENCE';
}
