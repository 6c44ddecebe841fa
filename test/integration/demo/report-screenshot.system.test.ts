import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  reportSections,
  SCREENSHOT_PNG,
  SCREENSHOT_RUN,
  SCREENSHOT_SOURCE,
  SCREENSHOT_UPDATE,
  storedScreenshotSource,
  type ScreenshotSource,
} from '../../helpers/report-sections.js';
import { runCli } from '../../helpers/run-cli.js';
import { chromiumPath } from '../../tiers.js';

/**
 * The README's screenshot is the demo's real weekly report (the run with every section) in headless Chromium.
 * `RAGWATCH_UPDATE_SCREENSHOT=1` writes the PNG and, beside it, the report's sections and hash; otherwise the test
 * fails when the report the demo writes now has other sections than the screenshot shows.
 */
describe('the README report screenshot', () => {
  it('is the demo report, and its sections are those the demo writes now', async () => {
    const executablePath = chromiumPath();
    if (!executablePath)
      throw new Error('Chromium is missing: apt-get install chromium, or set CHROMIUM_PATH (.ci/run installs it)');
    const demo = await runCli(['demo'], { timeoutMs: 170_000 });
    expect(demo.code, demo.stderr).toBe(0);
    const dir = /the reports stay in (\S*ragwatch-demo-reports-\w+)\./.exec(demo.stdout)![1]!;
    try {
      const htmlPath = join(dir, SCREENSHOT_RUN, 'report.html');
      const html = readFileSync(htmlPath, 'utf8');
      const current: ScreenshotSource = {
        report: `${SCREENSHOT_RUN}/report.html of npm run demo`,
        sha256: createHash('sha256').update(html).digest('hex'),
        sections: reportSections(html),
        regenerate: SCREENSHOT_UPDATE,
      };
      const browser = await chromium.launch({
        executablePath,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const errors: string[] = [];
        page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
        expect(errors).toEqual([]);
        // What Chromium shows is what the file says.
        expect(
          await page.$$eval('h2', (hs) => hs.map((h) => (h.textContent ?? '').replace(/\s+/g, ' ').trim())),
        ).toEqual(current.sections);
        if (process.env.RAGWATCH_UPDATE_SCREENSHOT === '1') {
          await page.screenshot({ path: SCREENSHOT_PNG, fullPage: true });
          writeFileSync(SCREENSHOT_SOURCE, `${JSON.stringify(current, null, 2)}\n`);
        }
      } finally {
        await browser.close();
      }
      const stored = storedScreenshotSource();
      expect(
        current.sections,
        `the report's sections changed: regenerate the screenshot with ${SCREENSHOT_UPDATE}`,
      ).toEqual(stored.sections);
      expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(SCREENSHOT_PNG).size).toBeGreaterThan(10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
