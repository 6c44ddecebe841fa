/**
 * `experiment run --junit FILE`: the verdict as a JUnit XML report, for the test views of CI systems (GitLab's
 * `artifacts:reports:junit`, GitHub's test reporters, Jenkins). Two suites:
 *
 *   gate     one case per gated figure (each metric of `metrics.thresholds`, the abstention rate): a failure when it
 *            failed, skipped when there was not enough evidence, else passed — the verdict itself;
 *   strata   one case per gated metric and stratum of the gate split, decided by the same rule and evidence floor
 *            on that stratum alone: where the gate's figure comes from. The gate decides on the whole split, so a
 *            stratum case fails only under a gated metric that failed (it shows where the failure sits); under a
 *            metric that passed, a stratum below its threshold passes with that said in its output, and a stratum
 *            on too few items is skipped. A file has a failure exactly when the gate failed.
 *
 * Each case's message carries the figure: value, 95 % interval, n and threshold. The exit code stays the decision
 * (0, 1, 4); the file is for reading.
 */
import { getMetric, type MetricName } from '../metrics/index.js';
import { decideCheck, type CheckVerdict } from './gate.js';
import { cell } from './report/index.js';
import type { CompleteReport } from './verdict.js';

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

function testcase(classname: string, name: string, check: CheckVerdict): string {
  const open = `    <testcase classname="${escapeXml(classname)}" name="${escapeXml(name)}" time="0">`;
  const message = escapeXml(check.line);
  if (check.outcome === 'failed')
    return `${open}\n      <failure message="${message}" type="gate">${message}</failure>\n    </testcase>`;
  if (check.outcome === 'not_enough_evidence') return `${open}\n      <skipped message="${message}"/>\n    </testcase>`;
  return `${open}\n      <system-out>${message}</system-out>\n    </testcase>`;
}

function suite(
  name: string,
  timestamp: string,
  cases: Array<{ classname: string; name: string; check: CheckVerdict }>,
) {
  const failures = cases.filter((c) => c.check.outcome === 'failed').length;
  const skipped = cases.filter((c) => c.check.outcome === 'not_enough_evidence').length;
  const body = cases.map((c) => testcase(c.classname, c.name, c.check)).join('\n');
  const head = `  <testsuite name="${escapeXml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0" timestamp="${timestamp}">`;
  return cases.length === 0 ? `${head}\n  </testsuite>` : `${head}\n${body}\n  </testsuite>`;
}

export function junitReport(report: CompleteReport): string {
  const gate = report.gate;
  const timestamp = report.finishedAt.replace(/\.\d+Z$/, '').replace(/Z$/, '');
  const on = gate.judgedOn;
  const gateCases = gate.checks.map((check) => ({ classname: `ragwatch.gate.${on}`, name: check.check, check }));
  const strata = [...new Set(report.cells.filter((c) => c.split === on && c.stratum !== 'all').map((c) => c.stratum))];
  const strataCases = gate.checks
    .filter((c) => c.check !== 'abstention')
    .flatMap((gated) =>
      strata.flatMap((stratum) => {
        const c = cell(report, gated.check as MetricName, on, stratum);
        if (!c) return [];
        const check = decideCheck(
          {
            check: `${gated.check} (${stratum})`,
            threshold: gated.threshold,
            higherIsBetter: getMetric(gated.check as MetricName).higherIsBetter,
            n: c.summary.n,
            value: c.summary.mean,
            interval: c.summary.ci,
            minN: gated.minN,
          },
          gate.rule,
        );
        // A stratum fails only where the gate failed on its metric.
        const shown: CheckVerdict =
          check.outcome === 'failed' && gated.outcome !== 'failed'
            ? {
                ...check,
                outcome: 'passed',
                line: `${check.line} on this stratum alone; the gate passed ${gated.check}`,
              }
            : check;
        return [{ classname: `ragwatch.strata.${on}.${stratum}`, name: gated.check, check: shown }];
      }),
    );
  const all = [...gateCases, ...strataCases];
  const failures = all.filter((c) => c.check.outcome === 'failed').length;
  const skipped = all.filter((c) => c.check.outcome === 'not_enough_evidence').length;
  const name = `ragwatch experiment run ${report.runName} on ${report.datasetName}: gate ${gate.outcome}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0">`,
    suite(`gate (rule ${gate.rule}, ${on} split): ${gate.outcome}`, timestamp, gateCases),
    suite(`strata (${on} split, each on its own)`, timestamp, strataCases),
    '</testsuites>',
    '',
  ].join('\n');
}

/** A run that could not complete has no verdict: one case in error, with why. */
export function junitIncomplete(runName: string, reason: string, finishedAt: string): string {
  const timestamp = finishedAt.replace(/\.\d+Z$/, '').replace(/Z$/, '');
  const message = escapeXml(`incomplete run, no gate verdict: ${reason}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`ragwatch experiment run ${runName}: incomplete`)}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
    `  <testsuite name="gate: incomplete" tests="1" failures="0" errors="1" skipped="0" time="0" timestamp="${timestamp}">`,
    `    <testcase classname="ragwatch.gate" name="run" time="0">`,
    `      <error message="${message}" type="incomplete">${message}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
