import { allMetricNames, getMetric, type MetricName } from '../../metrics/index.js';
import { cell, type ExperimentReport } from './model.js';

/** Inline SVG charts for the HTML report: no script, no external resource. */

/** Metric colours by registry position (today's five first), so a metric keeps its colour in every report. */
const PALETTE = ['#2563eb', '#059669', '#d97706', '#7c3aed', '#dc2626', '#0891b2', '#db2777', '#65a30d', '#475569'];

export function metricColor(metric: MetricName): string {
  return PALETTE[allMetricNames().indexOf(metric) % PALETTE.length] as string;
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One horizontal bar per metric (mean of the split), whiskers for the 95 % interval, a threshold line. */
export function metricBarsSvg(report: ExperimentReport, split: string): string {
  const rowHeight = 44;
  const left = 170;
  const width = 640;
  const plot = width - left - 60;
  const height = report.metrics.length * rowHeight + 40;
  const x = (v: number) => left + Math.max(0, Math.min(1, v)) * plot;
  const rows = report.metrics.map((metric, i) => {
    const c = cell(report, metric, split);
    const y = 20 + i * rowHeight;
    const threshold = report.thresholds[metric];
    const label = `<text class="label" x="${left - 10}" y="${y + 20}" text-anchor="end">${escapeXml(getMetric(metric).label)}</text>`;
    const mean = c?.summary.mean ?? null;
    const below =
      mean !== null &&
      threshold !== undefined &&
      (getMetric(metric).higherIsBetter ? mean < threshold : mean > threshold);
    const bar =
      mean === null
        ? `<text class="nodata" x="${left + 6}" y="${y + 20}">no data</text>`
        : `<rect class="bar${below ? ' below' : ''}" x="${left}" y="${y + 6}" width="${(x(mean) - left).toFixed(1)}" height="20" rx="3"><title>${escapeXml(`${getMetric(metric).label}: ${mean.toFixed(3)} (n=${c?.summary.n ?? 0})`)}</title></rect>` +
          `<text class="value" x="${(x(mean) + 6).toFixed(1)}" y="${y + 3}">${mean.toFixed(3)}</text>`;
    const ci = c?.summary.ci;
    const whiskers = ci
      ? `<g class="whisker"><line x1="${x(ci.low).toFixed(1)}" x2="${x(ci.high).toFixed(1)}" y1="${y + 16}" y2="${y + 16}"/>` +
        `<line x1="${x(ci.low).toFixed(1)}" x2="${x(ci.low).toFixed(1)}" y1="${y + 10}" y2="${y + 22}"/>` +
        `<line x1="${x(ci.high).toFixed(1)}" x2="${x(ci.high).toFixed(1)}" y1="${y + 10}" y2="${y + 22}"/></g>`
      : '';
    const thresholdLine =
      threshold !== undefined
        ? `<line class="threshold" x1="${x(threshold).toFixed(1)}" x2="${x(threshold).toFixed(1)}" y1="${y + 2}" y2="${y + 30}"><title>threshold ${threshold}</title></line>`
        : '';
    return `<g class="metric" data-metric="${metric}">${label}${bar}${whiskers}${thresholdLine}</g>`;
  });
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<g class="tick"><line x1="${x(t)}" x2="${x(t)}" y1="14" y2="${height - 20}"/><text x="${x(t)}" y="${height - 6}" text-anchor="middle">${t}</text></g>`,
    )
    .join('');
  return `<svg class="chart bars" data-split="${escapeXml(split)}" role="img" aria-label="Mean score per metric on the ${escapeXml(split)} split, with 95% confidence interval and threshold" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${axis}${rows.join('')}</svg>`;
}

/** Mean of each metric over the last runs, one line per metric. */
export function trendSvg(report: ExperimentReport): string {
  const points = report.trend;
  if (points.length < 2) return '';
  const width = 640;
  const height = 240;
  const left = 80;
  const right = 160;
  const top = 16;
  const bottom = 40;
  const x = (i: number) => left + (i / (points.length - 1)) * (width - left - right);
  const y = (v: number) => top + (1 - v) * (height - top - bottom);
  const series = report.metrics.map((metric, m) => {
    const color = metricColor(metric);
    const coords = points
      .map((p, i) => ({ i, v: p.means[metric] }))
      .filter((p): p is { i: number; v: number } => typeof p.v === 'number');
    if (coords.length === 0) return '';
    const path = coords.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
    const dots = coords
      .map((p) => `<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3" fill="${color}"/>`)
      .join('');
    const legendY = top + 14 + m * 18;
    const lx = width - right + 12;
    // The style attribute, not `fill=`: the report's stylesheet greys every svg text, and CSS beats presentation attributes.
    const legend =
      `<line class="swatch" x1="${lx}" x2="${lx + 14}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="3"/>` +
      `<text class="legend" x="${lx + 20}" y="${legendY}" style="fill:${color}">${escapeXml(getMetric(metric).label)}</text>`;
    return `<g class="series" data-metric="${metric}"><polyline fill="none" stroke="${color}" stroke-width="2" points="${path}"/>${dots}${legend}</g>`;
  });
  const grid = [0, 0.5, 1]
    .map(
      (t) =>
        `<g class="tick"><line x1="${left}" x2="${width - right}" y1="${y(t)}" y2="${y(t)}"/><text x="${left - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text></g>`,
    )
    .join('');
  const labels = points
    .map(
      (p, i) =>
        `<text class="run" x="${x(i).toFixed(1)}" y="${height - 18}" text-anchor="middle">${escapeXml(p.runName.length > 18 ? `…${p.runName.slice(-17)}` : p.runName)}</text>`,
    )
    .join('');
  return `<svg class="chart trend" role="img" aria-label="Trend over the last runs" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${grid}${series.join('')}${labels}</svg>`;
}
