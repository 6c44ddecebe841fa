/**
 * The quality alerts' series as Prometheus would compute them from the scrapes of several replicas: each replica's
 * /metrics scraped in rounds, and the rules of deploy/prometheus/alerts.yaml evaluated over those samples with
 * Prometheus's range semantics (a replica that stops exporting a series keeps its earlier samples in a range, as
 * after a staleness marker). Used by the chaos end-to-end test.
 */
import { parse } from 'yaml';

/** One replica's samples in one round: `name{labels}` → value; `null` when its scrape failed. */
export type Exposition = Map<string, number>;

export interface Round {
  at: number;
  byReplica: Map<string, Exposition | null>;
}

/** `name{a="x",b="y"} value` lines of the text exposition format (labels kept as written by prom-client). */
export function parseExposition(text: string): Exposition {
  const out: Exposition = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?)\s+(\S+)/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** Scrapes every target in rounds until stopped (each scrape bounded like Prometheus's scrape_timeout). */
export function startScraper(
  targets: () => Array<{ name: string; url: string }>,
  intervalMs = 1000,
  timeoutMs = 10_000,
) {
  const rounds: Round[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = Date.now();
      const scraped = await Promise.all(
        targets().map(async ({ name, url }) => {
          try {
            const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(timeoutMs) });
            return [name, res.ok ? parseExposition(await res.text()) : null] as const;
          } catch {
            return [name, null] as const;
          }
        }),
      );
      rounds.push({ at, byReplica: new Map(scraped) });
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    rounds,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** A quality alert of the form the rules use: a fleet gauge's mean over a range, gated by the ledger's done count. */
export interface QualityRule {
  alert: string;
  gauge: string;
  gaugeRangeMs: number;
  threshold: number;
  ledgerRangeMs: number;
}

const QUALITY_FORM =
  /^max by \(job\) \(avg_over_time\((\w+)\[(\d+)m\]\)\) < ([\d.]+)\s+and on \(job\) max by \(job\) \(max_over_time\(ragwatch_ledger_entries\{status="done"\}\[(\d+)h\]\)\) > 0$/;

/** The rules named, read from alerts.yaml; throws when one no longer has the form evaluated here. */
export function qualityRules(alertsYaml: string, names: readonly string[]): QualityRule[] {
  const doc = parse(alertsYaml) as { groups: Array<{ rules: Array<{ alert?: string; expr?: string }> }> };
  const rules = doc.groups.flatMap((g) => g.rules);
  return names.map((alert) => {
    const expr = rules.find((r) => r.alert === alert)?.expr?.trim();
    const m = expr ? QUALITY_FORM.exec(expr) : null;
    if (!m) throw new Error(`${alert}: not a rule of the form this test evaluates: ${expr}`);
    return {
      alert,
      gauge: m[1]!,
      gaugeRangeMs: Number(m[2]) * 60_000,
      threshold: Number(m[3]),
      ledgerRangeMs: Number(m[4]) * 3_600_000,
    };
  });
}

/** Each replica's samples of `series` in (at - rangeMs, at]. */
function inRange(rounds: readonly Round[], series: string, at: number, rangeMs: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const round of rounds) {
    if (round.at > at || round.at <= at - rangeMs) continue;
    for (const [replica, exposition] of round.byReplica) {
      const v = exposition?.get(series);
      if (v === undefined || Number.isNaN(v)) continue;
      out.set(replica, [...(out.get(replica) ?? []), v]);
    }
  }
  return out;
}

/**
 * The rule's two operands at `at` over the rounds so far (`null`: no series), and whether the alert's series
 * exists then with the comparison left out (so a healthy fleet still shows whether the series would hold for `for:`).
 */
export function evaluateQualityRule(rounds: readonly Round[], rule: QualityRule, at: number) {
  const means = [...inRange(rounds, rule.gauge, at, rule.gaugeRangeMs).values()].map(
    (vs) => vs.reduce((a, b) => a + b, 0) / vs.length,
  );
  const done = [...inRange(rounds, 'ragwatch_ledger_entries{status="done"}', at, rule.ledgerRangeMs).values()].map(
    (vs) => Math.max(...vs),
  );
  const mean = means.length > 0 ? Math.max(...means) : null;
  const ledger = done.length > 0 ? Math.max(...done) : null;
  return {
    mean,
    ledger,
    series: mean !== null && ledger !== null && ledger > 0,
    firing: mean !== null && ledger !== null && ledger > 0 && mean < rule.threshold,
  };
}

/** How many replicas exported `series` in each round (answering replicas only). */
export function exportersPerRound(rounds: readonly Round[], series: string): number[] {
  return rounds.map((r) => [...r.byReplica.values()].filter((e) => e?.has(series)).length);
}
