import { describe, expect, it } from 'vitest';
import { buildReport, renderHtml, renderMarkdown } from '../../../src/experiment/report/index.js';
import { costOf, formatCost } from '../../../src/judge/index.js';
import { reportInput } from '../../fixtures/experiment/report-input.js';

const pricing = { currency: 'EUR', promptPerMillion: 2, completionPerMillion: 6, embeddingsPerMillion: 0.05 };

describe('judge usage and cost in the weekly report', () => {
  it('prices tokens per million: prompt, completion and embedding tokens at their own rates', () => {
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 0 }, pricing)).toBe(2);
    expect(costOf({ promptTokens: 1500, completionTokens: 300, embeddingTokens: 2000 }, pricing)).toBeCloseTo(
      (1500 * 2 + 300 * 6 + 2000 * 0.05) / 1e6,
      12,
    );
    expect(formatCost(0.0048, 'EUR')).toBe('0.004800 EUR');
    expect(formatCost(12.345, 'USD')).toBe('12.35 USD');
    expect(formatCost(0, 'EUR')).toBe('0 EUR');
  });

  it('equals the sum by hand on the fixed fixture run: 16 scored items × 4 metrics, 1 call, 10 + 5 tokens each', () => {
    const report = buildReport(reportInput({ pricing }));
    const u = report.usage;
    expect(u.currency).toBe('EUR');
    expect(u.items).toBe(16);
    for (const row of u.perMetric) {
      expect(row).toMatchObject({ calls: 16, promptTokens: 160, completionTokens: 80, embeddingTokens: 0 });
      expect(row.cost).toBeCloseTo((160 * 2 + 80 * 6) / 1e6, 12);
    }
    expect(u.total).toMatchObject({ what: 'total', calls: 64, promptTokens: 640, completionTokens: 320 });
    expect(u.total.cost).toBeCloseTo(0.0032, 12);
    expect(u.costPerItem).toBeCloseTo(0.0002, 12);
    const md = renderMarkdown(report);
    expect(md).toContain('## Judge usage');
    expect(md).toContain('| Total | 64 | 640 | 320 | 0 | 0.003200 EUR |');
    expect(md).toContain('0.0002000 EUR per item');
    expect(renderHtml(report)).toContain('<table id="usage">');
  });

  it('counts tokens without a pricing and says how to see money', () => {
    const report = buildReport(reportInput());
    expect(report.usage.currency).toBeNull();
    expect(report.usage.total.cost).toBeNull();
    const md = renderMarkdown(report);
    expect(md).toContain('| Total | 64 | 640 | 320 | 0 |');
    expect(md).toContain('Set judge.pricing to see what they cost.');
  });
});
