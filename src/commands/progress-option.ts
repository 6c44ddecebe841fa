import type { RagwatchConfig } from '../config/index.js';
import { createProgress, noProgress, systemTimers, type Progress } from '../progress/index.js';
import { createLogger } from '../runtime/index.js';
import type { CommandContext } from './context.js';

/** Help of `--no-progress` on the long commands; progress goes to stderr, never to stdout. */
export const NO_PROGRESS_HELP = 'no progress on stderr (a live line on a terminal, else a log line every 15 s)';

/**
 * The command's progress reporter: a live line when stderr is a terminal, else an info-level `progress` log
 * record (JSON, like every log line) every 15 s; nothing with `--no-progress`.
 */
export function progressFor(
  ctx: CommandContext,
  options: { progress?: boolean },
  config: Pick<RagwatchConfig, 'log'>,
): Progress {
  if (options.progress === false) return noProgress;
  const stderr = ctx.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const live = stderr.isTTY === true;
  const logger = live ? null : createLogger({ level: config.log.level, destination: stderr });
  return createProgress({
    live,
    write: (text) => stderr.write(text),
    log: (message, snapshot) => logger?.info({ progress: snapshot }, message),
    now: ctx.now ?? Date.now,
    timers: ctx.timers ?? systemTimers,
    ...(stderr.columns ? { columns: stderr.columns } : {}),
  });
}
