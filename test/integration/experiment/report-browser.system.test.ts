import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, perItemValues, writeReportFiles } from '../../../src/experiment/report/index.js';
import { DEFINITIONS, reportInput, sampleOutcomes } from '../../fixtures/experiment/report-input.js';
import { chromiumPath } from '../../tiers.js';

const CHROMIUM = chromiumPath();

describe('HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!CHROMIUM)
      throw new Error('Chromium is missing: apt-get install chromium, or set CHROMIUM_PATH (.ci/run installs it)');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a bar with whiskers and a threshold line per metric, with no console error and no network request', async () => {
    const previous = {
      runName: 'weekly-2026-W47',
      perItem: perItemValues(sampleOutcomes(-0.05), [
        'faithfulness',
        'answer_relevancy',
        'context_precision',
        'context_recall',
      ]),
      definitionVersions: DEFINITIONS,
    };
    const history = [
      {
        runName: 'weekly-2026-W46',
        date: '2026-11-09T03:00:00.000Z',
        means: { faithfulness: 0.78, answer_relevancy: 0.8, context_precision: 0.7, context_recall: 0.74 },
      },
      {
        runName: 'weekly-2026-W47',
        date: '2026-11-16T03:00:00.000Z',
        means: { faithfulness: 0.8, answer_relevancy: 0.81, context_precision: 0.73, context_recall: 0.77 },
      },
    ];
    const report = buildReport(reportInput({ previous, history }));
    const written = await writeReportFiles(mkdtempSync(join(tmpdir(), 'ragwatch-report-')), report);
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('request', (r) => requests.push(r.url()));
    const url = pathToFileURL(written.html).href;
    await page.goto(url, { waitUntil: 'load' });

    const metrics = await page.$$eval('svg.bars g.metric', (groups) =>
      groups.map((g) => ({
        metric: g.getAttribute('data-metric'),
        bar: g.querySelectorAll('rect.bar').length,
        whiskers: g.querySelectorAll('g.whisker line').length,
        threshold: g.querySelectorAll('line.threshold').length,
        barWidth: Number(g.querySelector('rect.bar')?.getAttribute('width') ?? 0),
      })),
    );
    expect(metrics.map((m) => m.metric)).toEqual(report.metrics);
    for (const m of metrics) {
      expect(m.bar).toBe(1);
      expect(m.whiskers).toBe(3);
      expect(m.threshold).toBe(1);
      expect(m.barWidth).toBeGreaterThan(0);
    }
    expect(await page.textContent('#gate')).toMatch(/PASS|FAIL/);
    expect(await page.$$eval('svg.trend g.series', (s) => s.length)).toBe(report.metrics.length);
    // The trend legend is written in each metric's colour: the computed fill of its text is its line's stroke.
    const legend = await page.$$eval('svg.trend g.series', (series) => {
      const style = (e: unknown) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string; stroke: string } }).getComputedStyle(
          e,
        );
      return series.map((g) => ({
        metric: g.getAttribute('data-metric'),
        stroke: style(g.querySelector('polyline')!).stroke,
        text: style(g.querySelector('text')!).fill,
      }));
    });
    const grey = await page.$eval(
      'svg.trend g.tick text',
      (t) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(t).fill,
    );
    for (const l of legend) {
      expect(l.text, `${l.metric} legend`).toBe(l.stroke);
      expect(l.text, `${l.metric} legend`).not.toBe(grey);
    }
    expect(new Set(legend.map((l) => l.stroke)).size).toBe(report.metrics.length);
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });
});
