import { describe, expect, it } from 'vitest';
import { factsOf } from '../../../../src/anonymize/text/facts.js';
import { runWindows } from '../../../../src/anonymize/text/windows.js';

describe('factsOf', () => {
  it('lists the runs of digits and number punctuation with at least four digits, with their digits and dots', () => {
    const text = 'Tel. +34 612 34 56 78, pedido 4411, ref 123, DNI 12345678Z, IP 10.0.12.7';
    const runs = factsOf(text).digitRuns;
    const spans = [];
    for (let r = 0; r < runs.length; r += 4) spans.push([text.slice(runs[r], runs[r + 1]), runs[r + 2], runs[r + 3]]);
    expect(spans).toEqual([
      ['. +34 612 34 56 78', 11, 1],
      [' 4411', 4, 0],
      [' 12345678', 8, 0],
      [' 10.0.12.7', 6, 3],
    ]);
  });

  it('closes a run at the end of the text', () => {
    const runs = factsOf('call 600123456').digitRuns;
    expect(runs).toEqual([4, 14, 9, 0]);
  });

  it('lists every place two letters and two digits start, where an IBAN could', () => {
    const text = 'IBAN ES91 2100 0418 y GB29NWBK';
    expect(factsOf(text).ibanStarts).toEqual([text.indexOf('ES91'), text.indexOf('GB29')]);
  });
});

describe('runWindows', () => {
  it('widens the runs with enough digits and merges windows that touch', () => {
    const text = 'x'.repeat(60);
    expect(runWindows(text, [10, 20, 9, 0, 21, 30, 7, 0, 40, 50, 12, 0], 8, 1, 2)).toEqual([9, 22, 39, 52]);
    expect(runWindows(text, [0, 10, 9, 0, 11, 25, 9, 0], 7, 1, 2)).toEqual([0, 27]);
  });

  it('keeps only the runs the caller asks for', () => {
    const text = 'x'.repeat(60);
    expect(runWindows(text, [10, 20, 9, 3, 30, 40, 9, 1], 4, 1, 1, (_start, _end, dots) => dots >= 3)).toEqual([9, 21]);
  });
});
