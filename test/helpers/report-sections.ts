import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The README's report screenshot and, beside it, what it was made from (test/integration/demo/report-screenshot). */
export const SCREENSHOT_PNG = fileURLToPath(new URL('../../docs/report-screenshot.png', import.meta.url));
export const SCREENSHOT_SOURCE = fileURLToPath(new URL('../../docs/report-screenshot.json', import.meta.url));
/** The demo's report the screenshot shows: the one with every section (a change against a previous run, a trend). */
export const SCREENSHOT_RUN = 'demo-degraded';
export const SCREENSHOT_UPDATE =
  'RAGWATCH_UPDATE_SCREENSHOT=1 npm run test:system -- test/integration/demo/report-screenshot.system.test.ts';

export interface ScreenshotSource {
  /** Where the report came from. */
  report: string;
  /** sha256 of the report.html the screenshot was taken of. */
  sha256: string;
  /** Its sections (the h2 headings), in order. */
  sections: string[];
  /** The command that regenerates the PNG and this file. */
  regenerate: string;
}

export function storedScreenshotSource(): ScreenshotSource {
  return JSON.parse(readFileSync(SCREENSHOT_SOURCE, 'utf8')) as ScreenshotSource;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The report's sections: the text of its h2 headings, in order. */
export function reportSections(html: string): string[] {
  return [...html.matchAll(/<h2\b[^>]*>([\s\S]*?)<\/h2>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!)
      .replace(/\s+/g, ' ')
      .trim(),
  );
}
