import type { RagSample } from '../sample.js';
import type { ExtractReport } from './report.js';
import type { PartRule } from './types.js';

/** The text `ragwatch extract --trace ID` prints. */

const RULES: Record<PartRule, string> = {
  'trace.input': "the trace's input",
  'observation.input': "a step's input",
  'generation.prompt': 'the last user message of the answering generation',
  'retrieval.input': "a retrieval step's query",
  'trace.output': "the trace's output",
  'generation.output': "the last generation's output",
  'observation.output': "a step's output",
  'retriever.output': 'what a retrieval step returned',
  'retriever.openinference': 'OpenInference retrieval.documents attributes',
  'retriever.gen_ai': 'OpenTelemetry gen_ai.retrieval.documents',
  'documents.passed-along': 'a document list handed from one step to the next',
  'context-key': 'a context/documents key in an input or output',
  prompt: 'the documents laid into the prompt',
  mapping: 'your online.extract mapping',
};

const PREVIEW = 160;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 1)}… (${flat.length} chars)` : flat;
}

/** `anonymized` is the sample as the judge would get it; it is shown only when extraction succeeded. */
export interface ExtractReportView {
  apiGeneration: string;
  /** Whether an online.extract mapping was used: `none`, `configured`, `ignored (--ignore-mapping)`. */
  mapping: string;
  anonymized?: RagSample;
}

export function formatExtractReport(report: ExtractReport, options: ExtractReportView): string {
  const name = report.traceName ? ` (${report.traceName})` : '';
  const lines = [
    `trace ${report.traceId}${name}, read through the ${options.apiGeneration} API; online.extract mapping: ${options.mapping}`,
  ];
  const outcome = report.outcome;
  if (outcome.ok) {
    const contexts = outcome.parts.contexts;
    lines.push(`extracted: question, answer and ${outcome.sample.contexts.length} context(s)`);
    for (const [name, part] of Object.entries(outcome.parts)) {
      const extra =
        name === 'contexts'
          ? `; from ${contexts.from}${contexts.framing ? `, laid out as ${contexts.framing}` : ''}`
          : '';
      lines.push(`  ${name.padEnd(8)} ${part.source}  [rule ${part.rule}: ${RULES[part.rule]}${extra}]`);
    }
    if (options.anonymized) {
      lines.push('', 'what the judge would be given (anonymized):');
      lines.push(
        `  question: ${preview(options.anonymized.question)}`,
        `  answer:   ${preview(options.anonymized.answer)}`,
      );
      options.anonymized.contexts.forEach((c, i) => lines.push(`  context ${i + 1}: ${preview(c)}`));
    }
  } else {
    lines.push(`skipped: ${outcome.reason}${outcome.detail ? ` (${outcome.detail})` : ''}`);
    for (const line of outcome.checked ?? []) lines.push(`  - ${line}`);
  }
  lines.push('', 'observations as a tree (type, name, input → output shapes, metadata keys):');
  for (const o of report.observations) {
    const roles = o.roles.length > 0 ? `  <- ${o.roles.join(', ')}` : '';
    lines.push(`  ${'  '.repeat(Math.min(o.depth, 6))}${o.type} ${JSON.stringify(o.name ?? o.id)}${roles}`);
    const metadata =
      o.metadata.length > 8 ? [...o.metadata.slice(0, 8), `… ${o.metadata.length - 8} more`] : o.metadata;
    const keys = metadata.length > 0 ? `  metadata ${metadata.join(', ')}` : '';
    lines.push(`  ${'  '.repeat(Math.min(o.depth, 6))}    in ${o.input}  out ${o.output}${keys}`);
  }
  if (!outcome.ok && outcome.reason !== 'malformed_trace') {
    lines.push(
      '',
      'If this trace is RAG, name where each part is with online.extract (see docs/integrations.md), e.g.:',
      '  online:',
      '    extract:',
      `      contexts: { observation: ${JSON.stringify(mappingExample(report))}, path: "output" }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** An observation worth pointing a contexts mapping at: a tool or span with an output, else the first one. */
function mappingExample(report: ExtractReport): string {
  const withOutput = report.observations.filter((o) => o.output !== '-' && o.name);
  const byType = (type: string) => withOutput.find((o) => o.type === type && o.depth > 0);
  const candidate = byType('RETRIEVER') ?? byType('TOOL') ?? byType('SPAN') ?? withOutput[0];
  return candidate?.name ?? 'observation-name';
}
