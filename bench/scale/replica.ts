/**
 * One ragwatch replica of bench/scale in its own process: the real daemon (`startDaemon`, as `ragwatch run`
 * starts it) on the configuration the driver sends; it reports its CPU time when asked to stop.
 */
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/registry.js';
import { startDaemon } from '../../src/service/daemon.js';
import { createRuntime, silentLogger } from '../../src/runtime/index.js';

export type ToReplica = { type: 'stop' };
export type FromReplica = { type: 'ready' } | { type: 'stopped'; cpuMs: number; peakRssMb: number };

async function main(rawConfig: unknown): Promise<void> {
  const config = parseConfig(rawConfig, allMetrics());
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const daemon = await startDaemon({ config, runtime: createRuntime({ logger: silentLogger() }) });
  await daemon.ready;
  process.send!({ type: 'ready' } satisfies FromReplica);
  process.on('message', async (m: ToReplica) => {
    if (m.type !== 'stop') return;
    await daemon.shutdown('bench done');
    clearInterval(sampler);
    const cpu = process.cpuUsage();
    process.send!(
      { type: 'stopped', cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: peak / 2 ** 20 } satisfies FromReplica,
      () => process.exit(0),
    );
  });
}

if (process.argv[2] === '--child') await main(JSON.parse(process.argv[3]!) as unknown);
