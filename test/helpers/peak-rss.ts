import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./report-max-rss.mjs', import.meta.url));

/** Environment that makes a `runCli` child print its peak RSS when it exits. */
export const reportPeakRss = { NODE_OPTIONS: `--import ${PRELOAD}` };

/** The child's peak RSS in MB (10^6 bytes), from what `reportPeakRss` printed on its stderr. */
export function peakRssMb(stderr: string): number {
  const m = /ragwatch-test-max-rss-kib (\d+)/.exec(stderr);
  if (!m) throw new Error('the child did not report its peak RSS');
  return (Number(m[1]) * 1024) / 1e6;
}
