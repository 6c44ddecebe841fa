/**
 * The parts of docs/judge-protocol.md that list metrics, judge tasks, prompt versions and system messages,
 * rendered from the metric registry and the prompts. Each sits between `<!-- generated:NAME … -->` and
 * `<!-- /generated:NAME -->`; `npm run docs:protocol` rewrites them, and a test fails when the committed
 * document differs from what this renders. Everything else in the document is written by hand.
 */
import type { MetricDefinition } from './definition.js';
import type { PromptLanguage } from './language.js';
import {
  promptVersion,
  SCHEMA_NAMES,
  systemPrompt,
  taskFamily,
  type JudgeTask,
  type PromptFamily,
} from './prompts/build.js';
import { allMetricNames, getMetric } from './registry.js';

const LANGUAGES: Record<PromptLanguage, string> = { en: 'English', es: 'Spanish' };

/** What each family's user message carries, in order (see the layout comment of prompts/build.ts). */
const USER_MESSAGE: Record<PromptFamily, string> = {
  answer: '`<answer>` · `<question>` · `<contexts>` · `TASK`',
  reference: '`<question>` · `<contexts>` · `<reference>` · `<claims>` · `TASK`',
};

const code = (text: string): string => `\`${text}\``;
const schemaName = (task: JudgeTask): string => code(SCHEMA_NAMES[task]);
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[]): string =>
  [row(header), row(header.map(() => '---')).replaceAll(' ', ''), ...rows].join('\n');

function tasksByFamily(): Map<PromptFamily, JudgeTask[]> {
  const byFamily = new Map<PromptFamily, JudgeTask[]>();
  for (const task of Object.keys(SCHEMA_NAMES) as JudgeTask[]) {
    byFamily.set(taskFamily(task), [...(byFamily.get(taskFamily(task)) ?? []), task]);
  }
  return byFamily;
}

function familyTable(): string {
  const rows = [...tasksByFamily()].map(([family, tasks]) =>
    row([family, tasks.map(code).join(', '), USER_MESSAGE[family]]),
  );
  return table(['family', 'tasks', 'user message'], rows);
}

function judgeCalls(metric: MetricDefinition): string {
  return [...metric.judgeTasks.map(schemaName), ...(metric.usesEmbeddings ? ['1 embeddings request'] : [])].join(' + ');
}

function metricTable(): string {
  const metrics = allMetricNames().map((name) => getMetric(name));
  const rows = metrics.map((m) => {
    const value = m.higherIsBetter ? m.valueRule : `${m.valueRule}; lower is better`;
    return row([m.name, m.definitionVersion, m.jobs.join(', '), judgeCalls(m), value]);
  });
  const users = new Map<JudgeTask, string[]>();
  for (const m of metrics) for (const task of m.judgeTasks) users.set(task, [...(users.get(task) ?? []), m.name]);
  const shared = [...users].filter(([, names]) => names.length > 1);
  const sharing = shared.map(([task, names]) => `${schemaName(task)} (${names.join(', ')})`).join(', ');
  const note =
    'The **jobs** column says which jobs may score a metric (`metrics.online`, `experiment.metrics`); a metric ' +
    'that needs a reference answer is not for the online job, since production traces carry none. ' +
    '`ragwatch evaluate` scores any of them.' +
    (shared.length === 0
      ? ''
      : ' A call several metrics make is made once per sample, its cost charged to the first of them in the ' +
        `order above: ${sharing}.`);
  return `${table(['metric', 'definition', 'jobs', 'judge calls', 'value'], rows)}\n\n${wrap(note)}`;
}

/** Breaks a paragraph into lines of at most `width` characters at spaces, like the hand-written text. */
function wrap(text: string, width = 115): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

function promptVersionTable(): string {
  const rows = (Object.keys(SCHEMA_NAMES) as JudgeTask[]).map((task) =>
    row([schemaName(task), code(promptVersion(task, 'en')), code(promptVersion(task, 'es'))]),
  );
  return table(['schema name', 'en', 'es'], rows);
}

function systemMessages(): string {
  const blocks: string[] = [];
  for (const [family, tasks] of tasksByFamily()) {
    for (const [language, name] of Object.entries(LANGUAGES) as [PromptLanguage, string][]) {
      const text = systemPrompt(tasks[0] as JudgeTask, language);
      blocks.push(`### ${family} family, ${name}\n\n\`\`\`text\n${text}\n\`\`\``);
    }
  }
  return blocks.join('\n\n');
}

/** Each generated section's text, by the name in its markers. */
export function protocolSections(): Record<string, string> {
  return {
    families: familyTable(),
    metrics: metricTable(),
    'prompt-versions': promptVersionTable(),
    'system-messages': systemMessages(),
  };
}

const SECTION = /<!-- generated:([a-z-]+) [^>]*-->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/** The document with every generated section rendered anew; a section missing from it, or unknown, is an error. */
export function rewriteProtocolDoc(doc: string, sections: Record<string, string> = protocolSections()): string {
  const seen = new Set<string>();
  const out = doc.replace(SECTION, (_, name: string) => {
    const body = sections[name];
    if (body === undefined) throw new Error(`docs/judge-protocol.md: unknown generated section "${name}"`);
    seen.add(name);
    return `<!-- generated:${name} (npm run docs:protocol) -->\n${body}\n<!-- /generated:${name} -->`;
  });
  const missing = Object.keys(sections).filter((name) => !seen.has(name));
  if (missing.length > 0) throw new Error(`docs/judge-protocol.md: no generated section ${missing.join(', ')}`);
  return out;
}
