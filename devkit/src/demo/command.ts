/**
 * The devkit's side of `ragwatch demo` (`RunDemoCommand` in ragwatch's commands/devkit.ts): runs the demo
 * steps against fresh stand-ins and prints their progress, or one JSON report.
 */
import type { DemoCommandOptions, RunDemoCommand } from 'ragwatch/commands/devkit.js';
import { closingLines, headerLines, stepResultLines, stepStartLine, whereToLookLines } from './format.js';
import { runDemo, type DemoRun } from './run-demo.js';
import { defaultDemoSteps } from './steps/index.js';

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function jsonReport(run: DemoRun) {
  const { env } = run;
  return {
    personality: env.personality,
    seed: env.seed,
    traces: env.traces,
    langfuse: { url: env.langfuse.url, publicKey: env.langfuse.publicKey, secretKey: env.langfuse.secretKey },
    judge: { url: env.judge.url, model: env.judge.model, embeddingModel: env.judge.embeddingModel },
    reports: env.reports,
    ...(env.rag ? { rag: env.rag } : {}),
    ok: run.ok,
    steps: run.steps.map((s) => ({
      name: s.name,
      title: s.title,
      ok: s.result.ok,
      lines: s.result.lines,
      data: s.result.data,
    })),
  };
}

export const runDemoCommand: RunDemoCommand = async (options: DemoCommandOptions, stdout) => {
  const print = (lines: string[]) => {
    if (!options.json) for (const line of lines) stdout.write(`${line}\n`);
  };
  const { json: _json, ...demo } = options;
  let run: DemoRun;
  try {
    run = await runDemo({
      ...demo,
      steps: defaultDemoSteps(),
      onReady: (env) => print(headerLines(env)),
      onStepStart: (step, i, total) => print([stepStartLine(step, i, total)]),
      onStepEnd: (_step, result) => print(stepResultLines(result)),
    });
  } catch (err) {
    return { ok: false, problem: `could not start the stand-ins: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    if (options.json) stdout.write(`${JSON.stringify(jsonReport(run), null, 2)}\n`);
    else print([...(options.keep ? whereToLookLines(run) : []), ...closingLines(run, options.keep)]);
    if (options.keep) await untilSignal();
  } finally {
    await run.close();
  }
  return { ok: run.ok };
};
