import { describe, expect, it } from 'vitest';
import { parseExposition } from './support/exposition.js';
import { metricNames, metricUses } from './support/promql.js';

describe('metric names in PromQL', () => {
  it('finds selectors and their matcher labels, not functions, keywords or label lists', () => {
    expect(metricUses('avg_over_time(rag_faithfulness_score[30m]) < 0.80')).toEqual([
      { name: 'rag_faithfulness_score', labels: [] },
    ]);
    expect(
      metricNames(
        'sum by (outcome) (rate(judge_requests_total{outcome!="ok", model=~"a|b"}[15m])) / ignoring(outcome) group_left sum(rate(judge_requests_total[15m])) > bool 0.2',
      ),
    ).toEqual(['judge_requests_total']);
    expect(metricUses('x_total{outcome!="ok", model=~"a|b"}')[0]?.labels).toEqual(['outcome', 'model']);
    expect(metricNames('histogram_quantile(0.95, sum(rate(lat_seconds_bucket[5m])) by (le))')).toEqual([
      'lat_seconds_bucket',
    ]);
    expect(metricNames('time() - last_success_seconds{job="online"} > 3 * on(job) interval_seconds offset 5m')).toEqual(
      ['last_success_seconds', 'interval_seconds'],
    );
    expect(metricNames('topk(5, sum without (instance) (increase(skipped_total[1h])))')).toEqual(['skipped_total']);
    expect(metricNames('{__name__="odd_name", job="x"} and other unless absent(third)')).toEqual([
      'odd_name',
      'other',
      'third',
    ]);
  });

  it('ignores strings, comments and Grafana variables', () => {
    expect(
      metricNames('label_replace(up_metric, "dst", "$1 not_a_metric", "src", "(.*)") # trailing comment metric'),
    ).toEqual(['up_metric']);
    expect(metricNames('sum(increase(skipped_total{reason=~"$reason"}[$__rate_interval]))')).toEqual(['skipped_total']);
    expect(metricNames('rate(x_total[${__interval}])')).toEqual(['x_total']);
  });

  it('rejects what it cannot read instead of guessing', () => {
    expect(() => metricNames('rate(x{a="b"[5m])')).toThrow(/unclosed/);
  });
});

describe('exposition names', () => {
  it('exposes histogram series names and the labels seen on series', () => {
    const names = parseExposition(
      [
        '# HELP lat_seconds Latency.',
        '# TYPE lat_seconds histogram',
        'lat_seconds_bucket{le="0.1",model="m"} 1',
        'lat_seconds_bucket{le="+Inf",model="m"} 2',
        'lat_seconds_sum{model="m"} 0.3',
        'lat_seconds_count{model="m"} 2',
        '# HELP skipped_total Skipped.',
        '# TYPE skipped_total counter',
        '# TYPE score gauge',
        'score 0.9',
        '',
      ].join('\n'),
    );
    expect([...names.keys()].sort()).toEqual(
      [
        'lat_seconds_bucket',
        'lat_seconds_count',
        'lat_seconds_sum',
        'score',
        'skipped_total',
        'skipped_total_total',
      ].sort(),
    );
    expect([...(names.get('lat_seconds_bucket')?.labels ?? [])]).toEqual(['model']);
    expect(names.get('skipped_total')?.samples).toBe(0);
    expect(() => parseExposition('garbage line here')).toThrow(/not an exposition line/);
  });
});
