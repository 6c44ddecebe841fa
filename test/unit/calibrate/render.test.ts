import { describe, expect, it } from 'vitest';
import type { AnnotatedPair } from '../../../src/calibrate/pairs.js';
import { calibrationHtml, calibrationMarkdown } from '../../../src/calibrate/render.js';
import { commentCleaner } from '../../../src/calibrate/report.js';
import { parseConfig } from '../../helpers/config.js';
import type { CalibrationSummary } from '../../../src/calibrate/report.js';
import { agreementTable } from '../../../src/calibrate/table.js';

/** Two metrics, each with 12 pairs: 6 in one stratum per language, and one pair in each of the others. */
function pairs(): AnnotatedPair[] {
  const out: AnnotatedPair[] = [];
  for (const metric of ['faithfulness', 'answer_relevancy']) {
    for (const language of ['es', 'en']) {
      const strata = ['single-hop', 'single-hop', 'single-hop', 'multi-hop', 'howto', 'comparison'];
      strata.forEach((stratum, i) =>
        out.push({
          traceId: `${metric}-${language}-${i}`,
          metric,
          language,
          stratum,
          traceName: 'rag',
          origin: 'experiment',
          split: 'dev',
          judge: [0.9, 0.4, 0.7, 0.2, 1, 0.6][i]!,
          human: [1, 0.5, 0.5, 0, 1, 0.5][i]!,
        }),
      );
    }
  }
  return out;
}

function summary(): CalibrationSummary {
  const table = agreementTable(pairs(), {
    thresholds: { faithfulness: 0.85, answer_relevancy: 0.7 },
    bootstrap: { resamples: 200, seed: 1 },
  });
  return {
    window: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-08T00:00:00.000Z' },
    queue: 'ragwatch-calibration',
    scale: 'numeric',
    metrics: ['faithfulness', 'answer_relevancy'],
    humanScores: 24,
    unpaired: 0,
    table,
    disagreements: [],
  };
}

describe('calibration section', () => {
  it('folds the figures that are not estimable into one line per metric', () => {
    const s = summary();
    const perMetric = new Map<string, number>();
    for (const c of s.table.cells)
      if (c.figures.some((f) => !f.estimable)) perMetric.set(c.metric, (perMetric.get(c.metric) ?? 0) + 1);
    // The fixture has several cells of one pair per metric, each with every figure not estimable.
    expect(perMetric.get('faithfulness')).toBeGreaterThanOrEqual(4);

    const lines = calibrationMarkdown(s);
    const notes = lines.filter((l) => /not estimable/.test(l));
    expect(notes).toHaveLength(2);
    const faithfulness = notes[0]!;
    expect(faithfulness).toMatch(/^- n\/e, not estimable: /);
    // Every cell with a figure not estimable is named once, with the reason once.
    for (const c of s.table.cells.filter((x) => x.metric === 'faithfulness' && x.figures.some((f) => !f.estimable))) {
      const label = [c.language, c.stratum].filter((x) => x !== null).join(' · ') || 'all';
      expect(faithfulness).toContain(label);
    }
    expect(faithfulness.match(/1 pair: at least 2 are needed/g)).toHaveLength(1);

    const html = calibrationHtml(s);
    expect(html.match(/not estimable/g)).toHaveLength(2);
  });

  it('Markdown escapes HTML and drops control characters of the texts it shows (issue 29, part 5)', () => {
    const s = summary();
    const comment = '<script>alert(1)</script> \x1b[31mno\x1b[0m & <b>mal</b>';
    s.disagreements = [
      {
        metric: 'faithfulness',
        heldBack: 0,
        worst: [
          {
            traceId: 't<1>',
            metric: 'faithfulness',
            language: 'es',
            stratum: '<i>single-hop</i>',
            traceName: 'rag',
            origin: 'experiment',
            split: 'dev',
            judge: 0.9,
            human: 0.1,
            gap: 0.8,
            judgeLevel: 'supported',
            humanLevel: 'unsupported',
            judgeReason: '<img src=x onerror=alert(2)> | cell',
            humanComment: comment,
          },
        ],
      },
    ] as CalibrationSummary['disagreements'];
    const md = calibrationMarkdown(s).join('\n');
    expect(md).not.toMatch(/<script|<img|<b>|<i>|\x1b/);
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt; [31mno'.replace('[31m', ''));
    expect(md).toContain('&lt;img src=x onerror=alert(2)&gt; \\| cell');
    expect(md).toContain('&amp; &lt;b&gt;mal&lt;/b&gt;');
    expect(calibrationHtml(s)).not.toMatch(/<script|<img|\x1b/);
  });

  it("a person's comment is shown anonymized, on one line, without control characters", () => {
    const clean = commentCleaner(parseConfig({}));
    expect(clean('\x1b[31mMal\x1b[0m:\r\nllámame al 699112233\x07')).toBe('Mal: llámame al <PHONE_1>');
  });
});
