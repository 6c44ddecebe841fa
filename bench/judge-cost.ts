/**
 * bench/judge-cost — what the online pair (faithfulness + answer relevancy) costs per sample with ragwatch and
 * with Braintrust's autoevals (its RAGAS Faithfulness and AnswerRelevancy), side by side in one run, on the
 * same 20 ES/EN samples and the same judge stand-in. Prints chat calls, embedding requests, prompt and
 * completion tokens (cl100k over the chat template the stand-in renders, tool definitions included, as vLLM
 * puts them in the prompt), per sample and per metric, and the share of prompt tokens that is a prefix
 * already sent in an earlier call of the same evaluator (what vLLM's prefix cache can reuse), both exact
 * (longest common prefix with any earlier prompt) and in vLLM's 16-token blocks.
 *
 *   npx tsx bench/judge-cost.ts [--json]
 */
import OpenAI from 'openai';
import { AnswerRelevancy, Faithfulness, init } from 'autoevals';
import { configSchemaFor } from '../src/config/schema.js';
import { allMetrics } from '../src/metrics/registry.js';
import { startJudgeServer, type JudgeServer, type RecordedRequest } from '@ragwatch/devkit/judge/index.js';
import { PrefixCache } from '@ragwatch/devkit/judge/prefix-cache.js';
import { promptTokens } from '@ragwatch/devkit/judge/tokens.js';
import { judgeClientsFromConfig } from '../src/judge/index.js';
import { scoreSample } from '../src/metrics/index.js';
import type { MetricResult } from '../src/metrics/types.js';
import type { RagSample } from '../src/sample.js';
import { benchSamples } from './judge-cost-samples.js';

type Metric = 'faithfulness' | 'answer_relevancy';
type System = 'ragwatch' | 'autoevals';

interface Call {
  sample: string;
  metric: Metric;
  kind: 'chat' | 'embeddings';
  promptTokens: number;
  completionTokens: number;
  tokens: number[];
}

const METRIC_OF: Record<string, Metric> = {
  ragwatch_faithfulness: 'faithfulness',
  ragwatch_answer_relevancy: 'answer_relevancy',
  extract_statements: 'faithfulness',
  judge_statements: 'faithfulness',
  generate_question: 'answer_relevancy',
};

function messagesOf(body: Record<string, unknown>): { role: string; content: string }[] {
  const list = Array.isArray(body.messages) ? (body.messages as { role: string; content: unknown }[]) : [];
  return list.map((m) => ({
    role: m.role,
    content:
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p: { text?: string }) => p.text ?? '').join('\n')
          : '',
  }));
}

function metricOf(body: Record<string, unknown>): Metric {
  const schema = (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  const tool = (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
  const m = METRIC_OF[schema ?? tool ?? ''];
  if (m === undefined) throw new Error(`unrecognised judge request (${schema ?? tool ?? 'no schema or tool'})`);
  return m;
}

function callsOf(requests: RecordedRequest[], sample: string): Call[] {
  return requests.map((r) => {
    const body = (r.body ?? {}) as Record<string, unknown>;
    if (r.status !== 200) throw new Error(`request ${r.id} answered ${r.status}`);
    if (r.path.endsWith('/embeddings')) {
      return {
        sample,
        metric: 'answer_relevancy',
        kind: 'embeddings',
        promptTokens: r.usage?.promptTokens ?? 0,
        completionTokens: 0,
        tokens: [],
      };
    }
    const tokens = promptTokens(
      messagesOf(body),
      Array.isArray(body.tools) && body.tools.length > 0 ? body.tools : undefined,
    );
    return {
      sample,
      metric: metricOf(body),
      kind: 'chat',
      promptTokens: r.usage?.promptTokens ?? tokens.length,
      completionTokens: r.usage?.completionTokens ?? 0,
      tokens,
    };
  });
}

async function runRagwatch(
  server: JudgeServer,
  samples: RagSample[],
): Promise<{ calls: Call[]; results: MetricResult[][] }> {
  const config = configSchemaFor(allMetrics()).parse({
    judge: { baseUrl: server.url, model: server.model },
    embeddings: { model: server.embeddingModel },
  });
  const calls: Call[] = [];
  const results: MetricResult[][] = [];
  for (const sample of samples) {
    // Fresh clients per sample: the embeddings cache must not hide a request that a real run would make.
    const { judge, embeddings } = judgeClientsFromConfig(config);
    const start = server.requests.length;
    results.push(
      await scoreSample(sample, ['faithfulness', 'answer_relevancy'], { judge, embeddings, options: config.metrics }),
    );
    calls.push(...callsOf(server.requests.slice(start), sample.traceId));
  }
  return { calls, results };
}

async function runAutoevals(
  server: JudgeServer,
  samples: RagSample[],
): Promise<{ calls: Call[]; scores: { faithfulness: number | null; answer_relevancy: number | null }[] }> {
  // autoevals is typed against openai's CommonJS declarations; the client object is the same at run time.
  const client = new OpenAI({ baseURL: server.url, apiKey: 'EMPTY' }) as unknown as NonNullable<
    NonNullable<Parameters<typeof init>[0]>['client']
  >;
  init({ client, defaultModel: server.model });
  const calls: Call[] = [];
  const scores: { faithfulness: number | null; answer_relevancy: number | null }[] = [];
  for (const sample of samples) {
    const args = { input: sample.question, output: sample.answer, context: sample.contexts };
    const start = server.requests.length;
    const f = await Faithfulness(args);
    const ar = await AnswerRelevancy({ ...args, embeddingModel: server.embeddingModel });
    scores.push({ faithfulness: f.score ?? null, answer_relevancy: ar.score ?? null });
    calls.push(...callsOf(server.requests.slice(start), sample.traceId));
  }
  return { calls, scores };
}

/** Prompt tokens already sent as a prefix of an earlier prompt: exact, and in 16-token blocks like vLLM. */
function prefixReuse(calls: Call[]): { exact: number; blocks: number } {
  const cache = new PrefixCache(16);
  const earlier: number[][] = [];
  let exact = 0;
  let blocks = 0;
  for (const c of calls) {
    if (c.kind !== 'chat') continue;
    let best = 0;
    for (const e of earlier) {
      let i = 0;
      const max = Math.min(e.length, c.tokens.length);
      while (i < max && e[i] === c.tokens[i]) i += 1;
      if (i > best) best = i;
    }
    exact += best;
    blocks += cache.lookup(c.tokens);
    earlier.push(c.tokens);
  }
  return { exact, blocks };
}

interface Totals {
  chat: number;
  embeddings: number;
  prompt: number;
  completion: number;
  embeddingTokens: number;
}

function totals(calls: Call[]): Totals {
  const t: Totals = { chat: 0, embeddings: 0, prompt: 0, completion: 0, embeddingTokens: 0 };
  for (const c of calls) {
    if (c.kind === 'chat') {
      t.chat += 1;
      t.prompt += c.promptTokens;
      t.completion += c.completionTokens;
    } else {
      t.embeddings += 1;
      t.embeddingTokens += c.promptTokens;
    }
  }
  return t;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const padEnd = (s: string | number, n: number) => String(s).padEnd(n);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const per = (x: number, n: number) => (x / n).toFixed(1);

async function main(): Promise<void> {
  const asJson = process.argv.includes('--json');
  const samples = benchSamples;
  const n = samples.length;
  const server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  try {
    const ragwatch = await runRagwatch(server, samples);
    const autoevals = await runAutoevals(server, samples);
    const systems: Record<System, Call[]> = { ragwatch: ragwatch.calls, autoevals: autoevals.calls };
    const summary = Object.fromEntries(
      (Object.keys(systems) as System[]).map((s) => {
        const calls = systems[s];
        const t = totals(calls);
        const reuse = prefixReuse(calls);
        const byMetric = Object.fromEntries(
          (['faithfulness', 'answer_relevancy'] as Metric[]).map((m) => [
            m,
            totals(calls.filter((c) => c.metric === m)),
          ]),
        );
        const byLanguage = Object.fromEntries(
          (['es', 'en'] as const).map((lang) => {
            const ids = new Set(samples.filter((x) => x.language === lang).map((x) => x.traceId));
            return [lang, totals(calls.filter((c) => ids.has(c.sample)))];
          }),
        );
        return [s, { totals: t, reuse, byMetric, byLanguage }];
      }),
    ) as Record<
      System,
      {
        totals: Totals;
        reuse: { exact: number; blocks: number };
        byMetric: Record<Metric, Totals>;
        byLanguage: Record<'es' | 'en', Totals>;
      }
    >;

    const rw = summary.ragwatch;
    const ae = summary.autoevals;
    const ratio = rw.totals.prompt / ae.totals.prompt;
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const shape = {
      samples: n,
      spanish: samples.filter((s) => s.language === 'es').length,
      answerWords: samples.reduce((s, x) => s + words(x.answer), 0) / n,
      chunksPerSample: samples.reduce((s, x) => s + x.contexts.length, 0) / n,
      chunkWords:
        samples.reduce((s, x) => s + x.contexts.reduce((a, c) => a + words(c), 0), 0) /
        samples.reduce((s, x) => s + x.contexts.length, 0),
    };
    const targets = {
      chatCallsPerSample: { value: rw.totals.chat / n, target: '≤ 3', met: rw.totals.chat / n <= 3 },
      embeddingRequestsPerSample: {
        value: rw.totals.embeddings / n,
        target: '≤ 1',
        met: rw.totals.embeddings / n <= 1,
      },
      promptTokensVsAutoevals: { value: ratio, target: '≤ 0.35', met: ratio <= 0.35 },
      prefixReusableShare: {
        value: rw.reuse.blocks / rw.totals.prompt,
        target: '≥ 55 %',
        met: rw.reuse.blocks / rw.totals.prompt >= 0.55,
      },
    };
    const scoreMeans = {
      ragwatch: meanScores(
        ragwatch.results.map((r) =>
          Object.fromEntries(r.map((x) => [x.metric, x.status === 'scored' ? x.value : null])),
        ),
      ),
      autoevals: meanScores(autoevals.scores),
    };

    if (asJson) {
      process.stdout.write(`${JSON.stringify({ shape, summary, targets, scoreMeans }, null, 2)}\n`);
      return;
    }
    const out: string[] = [];
    out.push(
      `judge-cost: online pair (faithfulness + answer relevancy), ${n} samples (${shape.spanish} ES / ${n - shape.spanish} EN),`,
    );
    out.push(
      `  answers ≈ ${shape.answerWords.toFixed(0)} words, ${shape.chunksPerSample} chunks of ≈ ${shape.chunkWords.toFixed(0)} words; same judge stand-in; tokens = cl100k over the rendered chat template (tools included)`,
    );
    out.push('');
    out.push(`${padEnd('per sample', 34)}${pad('ragwatch', 12)}${pad('autoevals', 12)}${pad('ratio', 9)}`);
    const row = (label: string, a: number, b: number) =>
      out.push(
        `${padEnd(label, 34)}${pad(per(a, n), 12)}${pad(per(b, n), 12)}${pad(b === 0 ? '-' : (a / b).toFixed(2), 9)}`,
      );
    row('chat calls', rw.totals.chat, ae.totals.chat);
    row('embedding requests', rw.totals.embeddings, ae.totals.embeddings);
    row('prompt tokens', rw.totals.prompt, ae.totals.prompt);
    row('completion tokens', rw.totals.completion, ae.totals.completion);
    row('embedding input tokens', rw.totals.embeddingTokens, ae.totals.embeddingTokens);
    row('prompt tokens reusable (blocks)', rw.reuse.blocks, ae.reuse.blocks);
    out.push(
      `${padEnd('prefix-cache reusable share', 34)}${pad(pct(rw.reuse.blocks / rw.totals.prompt), 12)}${pad(pct(ae.reuse.blocks / ae.totals.prompt), 12)}   (16-token blocks)`,
    );
    out.push(
      `${padEnd('  exact longest-prefix share', 34)}${pad(pct(rw.reuse.exact / rw.totals.prompt), 12)}${pad(pct(ae.reuse.exact / ae.totals.prompt), 12)}`,
    );
    out.push('');
    out.push(
      `${padEnd('per metric, per sample', 34)}${pad('calls', 7)}${pad('emb', 5)}${pad('prompt', 8)}${pad('compl', 7)}   ${pad('calls', 7)}${pad('emb', 5)}${pad('prompt', 8)}${pad('compl', 7)}`,
    );
    out.push(`${padEnd('', 34)}${padEnd('  ragwatch', 27)}   ${padEnd('  autoevals', 27)}`);
    for (const m of ['faithfulness', 'answer_relevancy'] as Metric[]) {
      const a = rw.byMetric[m];
      const b = ae.byMetric[m];
      out.push(
        `${padEnd(m, 34)}${pad(per(a.chat, n), 7)}${pad(per(a.embeddings, n), 5)}${pad(per(a.prompt, n), 8)}${pad(per(a.completion, n), 7)}   ${pad(per(b.chat, n), 7)}${pad(per(b.embeddings, n), 5)}${pad(per(b.prompt, n), 8)}${pad(per(b.completion, n), 7)}`,
      );
    }
    for (const lang of ['es', 'en'] as const) {
      const k = samples.filter((s) => s.language === lang).length;
      const a = rw.byLanguage[lang];
      const b = ae.byLanguage[lang];
      out.push(
        `${padEnd(`${lang.toUpperCase()} samples: prompt tokens/sample`, 34)}${pad(per(a.prompt, k), 12)}${pad(per(b.prompt, k), 12)}${pad((a.prompt / b.prompt).toFixed(2), 9)}`,
      );
    }
    out.push('');
    out.push(
      `${padEnd('sample', 12)}${pad('lang', 5)}${pad('rw calls', 10)}${pad('rw prompt', 11)}${pad('ae calls', 10)}${pad('ae prompt', 11)}${pad('rw faith', 10)}${pad('ae faith', 10)}${pad('rw relev', 10)}${pad('ae relev', 10)}`,
    );
    samples.forEach((s, i) => {
      const a = totals(rw ? ragwatch.calls.filter((c) => c.sample === s.traceId) : []);
      const b = totals(autoevals.calls.filter((c) => c.sample === s.traceId));
      const r = ragwatch.results[i] ?? [];
      const v = (m: string) => {
        const x = r.find((y) => y.metric === m);
        return x?.status === 'scored' ? x.value.toFixed(2) : (x?.status ?? '-');
      };
      const ae2 = autoevals.scores[i];
      out.push(
        `${padEnd(s.traceId, 12)}${pad(s.language ?? '', 5)}${pad(`${a.chat}+${a.embeddings}e`, 10)}${pad(a.prompt, 11)}${pad(`${b.chat}+${b.embeddings}e`, 10)}${pad(b.prompt, 11)}${pad(v('faithfulness'), 10)}${pad(ae2?.faithfulness?.toFixed(2) ?? '-', 10)}${pad(v('answer_relevancy'), 10)}${pad(ae2?.answer_relevancy?.toFixed(2) ?? '-', 10)}`,
      );
    });
    out.push('');
    out.push(
      `mean scores (stand-in, lexical): ragwatch faithfulness ${fmt(scoreMeans.ragwatch.faithfulness)}, answer relevancy ${fmt(scoreMeans.ragwatch.answer_relevancy)}; autoevals faithfulness ${fmt(scoreMeans.autoevals.faithfulness)}, answer relevancy ${fmt(scoreMeans.autoevals.answer_relevancy)}`,
    );
    out.push('targets for ragwatch:');
    for (const [name, t] of Object.entries(targets)) {
      const v =
        name === 'promptTokensVsAutoevals'
          ? `${t.value.toFixed(3)}×`
          : name === 'prefixReusableShare'
            ? pct(t.value)
            : t.value.toFixed(2);
      out.push(`  ${padEnd(name, 28)} ${pad(v, 9)}  target ${padEnd(t.target, 8)} ${t.met ? 'met' : 'NOT met'}`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await server.close();
  }
}

function meanScores(rows: Record<string, number | null | undefined>[]): Record<Metric, number | null> {
  const m = (k: Metric) => {
    const vals = rows.map((r) => r[k]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return vals.length === 0 ? null : vals.reduce((a, b) => a + b, 0) / vals.length;
  };
  return { faithfulness: m('faithfulness'), answer_relevancy: m('answer_relevancy') };
}

function fmt(x: number | null): string {
  return x === null ? '-' : x.toFixed(3);
}

main().catch((err: unknown) => {
  process.stderr.write(`judge-cost: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
