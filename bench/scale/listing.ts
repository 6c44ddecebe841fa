/**
 * The listing of bench/scale: one online tick over a window of `count` traces with nothing sampled, in this
 * process, so its peak RSS is ragwatch's; Langfuse requests counted by the client.
 */
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/registry.js';
import { runOnlineTick } from '../../src/online/job.js';
import { createOnlineRuntime } from '../../src/online/runtime.js';
import { createRuntime, silentLogger } from '../../src/runtime/index.js';
import { openSqliteState } from '../../src/state/index.js';
import type { StandIns } from './procs.js';

export interface ListingResult {
  listed: number;
  seconds: number;
  langfuseRequests: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

export async function listWindow(standIns: StandIns, count: number): Promise<ListingResult> {
  const to = Date.now() - 11 * 60_000;
  await standIns.ask({ type: 'seed-bulk', count, from: to - 3_600_000, to });
  const { langfuse, judge } = standIns.ready;
  const config = parseConfig(
    {
      langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
      judge: { baseUrl: judge.url, model: judge.model },
      embeddings: { model: judge.embeddingModel },
      sampling: { rate: 0 },
      online: { initialLookbackSeconds: 2 * 3600 },
      log: { level: 'silent' },
    },
    allMetrics(),
  );
  const state = openSqliteState({ path: ':memory:' });
  let langfuseRequests = 0;
  const metrics = { observeJudgeRequest: () => {}, observeLangfuseRequest: () => void (langfuseRequests += 1) };
  const runtime = await createOnlineRuntime(config, {
    runtime: createRuntime({ logger: silentLogger(), metrics }),
    state,
  });
  langfuseRequests = 0;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  const report = await runOnlineTick(runtime.deps, runtime.settings);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await state.close();
  return {
    listed: report.listed,
    seconds,
    langfuseRequests,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: peak / 2 ** 20,
  };
}
