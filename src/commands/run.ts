import type { Command } from 'commander';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  startDaemon,
  listenErrorProblem,
  listenHostProblem,
  openStateOrExit,
  startupFailureExit,
  withStatePathFrom,
} from '../service/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';

export function registerRunCommand(program: Command, ctx: CommandContext): void {
  program
    .command('run')
    .description(
      'run the daemon: online ticks on a schedule, HTTP /healthz, /readyz and /metrics; stops gracefully on SIGTERM/SIGINT',
    )
    .addHelpText(
      'after',
      [
        '',
        'While running it does not exit on failures: /readyz answers 503 naming the check while Langfuse or the judge fails',
        'for every trace or refuses the keys (logged once; the ticks go on and it is ready again once one gets through),',
        'while the state file is deleted, replaced or cannot be written, and while a tick is stuck.',
      ].join('\n'),
    )
    .action(async (_options: unknown, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const hostProblem = await listenHostProblem(config.http.host, ctx.lookup);
      if (hostProblem) throw new CliExit(ExitCode.badInput, [hostProblem]);
      const runtime = runtimeFor(config);
      const { logger } = runtime;
      const state = await openStateOrExit(config);
      let daemon;
      try {
        daemon = await startDaemon({ config, runtime, state });
      } catch (err) {
        await state.close();
        const problem = listenErrorProblem(err, config.http.host, config.http.port);
        if (problem) throw new CliExit(ExitCode.badInput, [problem]);
        throw err;
      }
      const started = daemon;
      const exit = await new Promise<CliExit | null>((resolve) => {
        let stopping = false;
        const onSignal = (signal: NodeJS.Signals) => {
          stopping = true;
          detach();
          void started.shutdown(signal).then(() => resolve(null));
        };
        const detach = () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        started.ready.catch(async (err: unknown) => {
          if (stopping) return;
          detach();
          logger.error({ error: err instanceof Error ? err.message : String(err) }, 'cannot start');
          await started.shutdown('start-up failed');
          resolve(startupFailureExit(err));
        });
      });
      if (exit) throw exit;
      // Anything a library left open must not keep a stopped daemon alive.
      setTimeout(() => process.exit(ExitCode.ok), 1000).unref();
    });
}
