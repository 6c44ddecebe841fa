/** The report's judge-usage section in Markdown and HTML: one row per metric and the total, priced when set. */
import { formatCost } from '../../judge/index.js';
import { getMetric, type MetricName } from '../../metrics/index.js';
import { escapeXml as esc } from './svg.js';
import type { UsageRow, UsageSummary } from './usage.js';

const count = (n: number) => n.toLocaleString('en-US');

function cells(u: UsageSummary, row: UsageRow): string[] {
  const what = row.what === 'total' ? 'Total' : getMetric(row.what as MetricName).label;
  const cost = u.currency !== null && row.cost !== null ? [formatCost(row.cost, u.currency)] : [];
  return [
    what,
    count(row.calls),
    count(row.promptTokens),
    count(row.completionTokens),
    count(row.embeddingTokens),
    ...cost,
  ];
}

function head(u: UsageSummary): string[] {
  return [
    'Metric',
    'Judge calls',
    'Prompt tokens',
    'Completion tokens',
    'Embedding tokens',
    ...(u.currency ? ['Cost'] : []),
  ];
}

function sentence(u: UsageSummary): string {
  const what = `Over the ${u.items} items the metrics ran on, retries included; the noise pass, the abstention checks and the judge check before the items are not in these rows.`;
  if (u.currency === null || u.costPerItem === null) return `${what} Set judge.pricing to see what they cost.`;
  return `${what} ${formatCost(u.costPerItem, u.currency)} per item.`;
}

export function usageMarkdown(u: UsageSummary): string[] {
  const h = head(u);
  return [
    '## Judge usage',
    '',
    sentence(u),
    '',
    `| ${h.join(' | ')} |`,
    `|${h.map(() => '---').join('|')}|`,
    ...[...u.perMetric, u.total].map((row) => `| ${cells(u, row).join(' | ')} |`),
  ];
}

export function usageHtml(u: UsageSummary): string {
  const rows = [...u.perMetric, u.total]
    .map((row) => {
      const [what, ...nums] = cells(u, row);
      return `<tr><td>${esc(what!)}</td>${nums.map((n) => `<td class="num">${esc(n)}</td>`).join('')}</tr>`;
    })
    .join('');
  const th = head(u)
    .map((h) => `<th>${esc(h)}</th>`)
    .join('');
  return `<h2>Judge usage</h2><p>${esc(sentence(u))}</p><table id="usage"><tr>${th}</tr>${rows}</table>`;
}
