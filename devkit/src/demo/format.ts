import type { DemoEnvironment, DemoRun, DemoStep, DemoStepResult } from './run-demo.js';

export function headerLines(env: DemoEnvironment): string[] {
  const { langfuse, judge } = env;
  return [
    `ragwatch demo: Langfuse ${env.personality} personality, seed ${env.seed}, ${env.traces} traces`,
    '',
    'Local stand-ins (in memory, loopback only; they imitate the services, they are not them):',
    `  Langfuse  ${langfuse.url}  (public key ${langfuse.publicKey}, secret key ${langfuse.secretKey})`,
    `  Judge     ${judge.url}  (chat model ${judge.model}, embeddings ${judge.embeddingModel}; lexical rules, not a quality judge)`,
    `  Reports   ${env.reports.url}/reports/  (files in ${env.reports.dir}, kept after the demo)`,
    '',
  ];
}

export function stepStartLine(step: DemoStep, index: number, total: number): string {
  return `[${index + 1}/${total}] ${step.title}`;
}

export function stepResultLines(result: DemoStepResult): string[] {
  return [
    ...result.lines.map((l) => `    ${l}`),
    ...(result.ok ? [] : ['    (this step did not complete cleanly)']),
    '',
  ];
}

/** Commands to try against the servers: printed only when they stay up (`--keep`). */
export function whereToLookLines(run: DemoRun): string[] {
  const { langfuse, judge, personality, config, reports, rag } = run.env;
  const auth = `-u ${langfuse.publicKey}:${langfuse.secretKey}`;
  const lines = ['Where to look (the servers stay up until Ctrl-C):'];
  if (personality === 'v3') lines.push(`  curl ${auth} '${langfuse.url}/api/public/traces?limit=5'`);
  lines.push(
    `  curl ${auth} '${langfuse.url}/api/public/v2/observations?limit=5&fields=core,basic,io'`,
    `  curl ${auth} '${langfuse.url}/api/public/v2/datasets/${config.experiment.dataset}'`,
    `  curl ${auth} '${langfuse.url}/api/public/dataset-items?datasetName=${config.experiment.dataset}&limit=5'`,
    `  curl ${judge.url}/models`,
    `  open ${reports.url}/reports/`,
    '  Point ragwatch at them:',
    `    LANGFUSE_BASE_URL=${langfuse.url} LANGFUSE_PUBLIC_KEY=${langfuse.publicKey} LANGFUSE_SECRET_KEY=${langfuse.secretKey} \\`,
    `    RAGWATCH_JUDGE_BASE_URL=${judge.url} RAGWATCH_JUDGE_MODEL=${judge.model} RAGWATCH_EMBEDDINGS_MODEL=${judge.embeddingModel} npx tsx src/cli.ts doctor`,
  );
  if (rag) {
    lines.push(
      `  The toy RAG service answers at ${rag.askUrl}; run the golden-set experiment against it yourself:`,
      `    npx tsx src/cli.ts experiment run --config ${rag.configFile}`,
      `    (it points at the servers above; copy it and edit it to try other settings)`,
    );
  }
  lines.push('');
  return lines;
}

export function closingLines(run: DemoRun, keep: boolean): string[] {
  const failed = run.steps.filter((s) => !s.result.ok).map((s) => s.name);
  const verdict =
    failed.length === 0
      ? `demo: all ${run.steps.length} steps completed`
      : `demo: ${failed.length} step(s) did not complete: ${failed.join(', ')}`;
  return keep
    ? [verdict, 'Servers are running; press Ctrl-C to stop them.']
    : [
        verdict,
        `Servers stopped; the reports stay in ${run.env.reports.dir}.`,
        'Run `npm run demo -- --keep` to keep Langfuse, the judge, the report server and the toy RAG service running until Ctrl-C, with commands to look at them.',
      ];
}
