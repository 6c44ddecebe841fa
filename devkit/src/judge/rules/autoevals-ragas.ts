/**
 * Stand-in rules for the forced tool calls of Braintrust's autoevals RAGAS evaluators (Faithfulness,
 * AnswerRelevancy), so `bench/judge-cost` can run autoevals unchanged against the same stand-in as ragwatch.
 * Same lexical logic as the ragwatch rules: statements are sentences, support is content-word coverage.
 * autoevals renders its prompts with mustache `{{…}}`, which HTML-escapes values and joins arrays with ",".
 */
import { coverage, detectLanguage, questionFor, splitSentences } from '../lexical.js';
import { isEvasive } from './ragwatch-metrics.js';
import type { JudgeRule } from '../types.js';

const SUPPORT = 0.6;

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x2F;': '/',
  '&#x60;': '`',
  '&#x3D;': '=',
};

function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#x2F|#x60|#x3D);/g, (e) => ENTITIES[e] ?? e);
}

/** The text after the last `label:` line of the prompt's actual task, up to the next known label. */
function lastField(prompt: string, label: string, next: string[]): string {
  const task = prompt.slice(prompt.lastIndexOf('Your actual task:') + 1);
  const start = task.lastIndexOf(`\n${label}:`);
  if (start < 0) return '';
  let body = task.slice(start + label.length + 2);
  let end = body.length;
  for (const n of next) {
    const at = body.indexOf(`\n${n}:`);
    if (at >= 0 && at < end) end = at;
  }
  body = body.slice(0, end).trim();
  return unescapeHtml(body.replace(/^"([\s\S]*)"$/, '$1'));
}

function sentences(text: string): string[] {
  return splitSentences(text).filter((s) => !isEvasive(s));
}

export const autoevalsRagasRules: JudgeRule[] = [
  {
    name: 'autoevals:extract_statements',
    description: 'autoevals Faithfulness step 1: statements = sentences of the answer',
    matches: (r) => r.toolName === 'extract_statements',
    answer: (r) => ({ statements: sentences(lastField(r.lastUser, 'answer', ['statements'])) }),
  },
  {
    name: 'autoevals:judge_statements',
    description:
      'autoevals Faithfulness step 2: a statement is faithful when ≥60 % of its content words are in the context',
    matches: (r) => r.toolName === 'judge_statements',
    answer: (r) => {
      const context = lastField(r.lastUser, 'context', ['statements', 'answer']);
      // Mustache joined the array with ","; sentences themselves only have commas followed by a space.
      const statements = lastField(r.lastUser, 'statements', ['answer'])
        .split(/,(?=\S)/)
        .map((s) => s.trim())
        .filter((s) => s !== '');
      return {
        faithfulness: statements.map((statement) => {
          const verdict = coverage(statement, context) >= SUPPORT ? 1 : 0;
          return {
            statement,
            verdict,
            reason: verdict ? 'Most of its words appear in the context.' : 'The context does not state it.',
          };
        }),
      };
    },
  },
  {
    name: 'autoevals:generate_question',
    description: 'autoevals AnswerRelevancy: a question built from the answer; noncommittal when the answer is evasive',
    matches: (r) => r.toolName === 'generate_question',
    answer: (r) => {
      const answer = lastField(r.lastUser, 'answer', ['context', 'output']);
      return { question: questionFor(answer, detectLanguage(answer)), noncommittal: isEvasive(answer) ? 1 : 0 };
    },
  },
];
