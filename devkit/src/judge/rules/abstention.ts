/**
 * Stand-in rule for ragwatch's abstention prompt (`ragwatch_abstention`, adversarial golden items): the answer
 * abstains when it is evasive ("I don't know", "no tengo información") or says the documents do not cover the
 * question, that something does not exist or is not possible, or that the premise is false.
 */
import type { JudgeRule } from '../types.js';
import { isEvasive } from './ragwatch-metrics.js';

const DECLINES = [
  /\b(?:documentation|documents?|docs|knowledge base|context)\b[^.]*\b(?:does not|doesn't|do not|don't)\b[^.]*\b(?:mention|contain|cover|include|say)/i,
  /\b(?:no|not enough|insufficient) information\b/i,
  /\b(?:do not|don't|does not|doesn't) have (?:enough |sufficient |any )?(?:information|details)\b/i,
  /\bpremise is (?:false|wrong|incorrect)\b/i,
  /\b(?:is|it's) not possible\b|\bcannot be done\b|\bthere is no\b/i,
  /\b(?:la )?(?:documentaci[oó]n|informaci[oó]n disponible|base de conocimiento)\b[^.]*\bno (?:recoge|contiene|menciona|incluye|dice)\b/i,
  /\bno (?:tengo|dispongo de|hay) (?:suficiente )?informaci[oó]n\b/i,
  /\bla premisa es falsa\b/i,
  /\bno es posible\b|\bno se puede\b|\bno existe\b/i,
];

function tag(text: string, name: string): string {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? (m[1] ?? '').trim() : '';
}

export const abstentionRules: JudgeRule[] = [
  {
    name: 'ragwatch:abstention',
    description: 'abstained when the answer is evasive, says the documents do not cover it, or rejects the premise',
    matches: (r) => r.schemaName === 'ragwatch_abstention',
    answer: (r) => {
      const answer = tag(r.lastUser, 'answer');
      const abstained = isEvasive(answer) || DECLINES.some((re) => re.test(answer));
      return {
        abstained: abstained ? 1 : 0,
        reason: abstained
          ? 'The answer says the information is not available or rejects the premise.'
          : 'The answer responds as if the question were answerable.',
      };
    },
  },
];
