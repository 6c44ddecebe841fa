import type { Command } from 'commander';
import { CliExit, ExitCode } from '../exit-codes.js';
import type { CommandContext } from './context.js';
import { loadDemoCommand } from './devkit.js';

interface DemoOptions {
  personality: string;
  traces: string;
  seed: string;
  keep?: boolean;
  host: string;
  langfusePort: string;
  judgePort: string;
  json?: boolean;
}

const MAX_TRACES = 5000;

function parseOptions(o: DemoOptions) {
  const problems: string[] = [];
  if (o.personality !== 'v3' && o.personality !== 'v4')
    problems.push(`demo: --personality: must be v3 or v4 (got ${o.personality})`);
  const traces = Number(o.traces);
  if (!Number.isInteger(traces) || traces < 1 || traces > MAX_TRACES)
    problems.push(`demo: --traces: must be an integer between 1 and ${MAX_TRACES} (got ${o.traces})`);
  const port = (name: string, raw: string) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 65535)
      problems.push(`demo: --${name}: must be a port between 0 and 65535 (got ${raw})`);
    return n;
  };
  const langfusePort = port('langfuse-port', o.langfusePort);
  const judgePort = port('judge-port', o.judgePort);
  if (o.seed.trim() === '') problems.push('demo: --seed: must not be empty');
  if (problems.length > 0) throw new CliExit(ExitCode.badInput, problems);
  return { personality: o.personality as 'v3' | 'v4', traces, langfusePort, judgePort, seed: o.seed, host: o.host };
}

/**
 * `ragwatch demo`: the whole system on one machine with nothing installed. Starts the Langfuse and judge
 * stand-ins, seeds realistic traces and the golden dataset, runs the demo steps and says where to look.
 */
export function registerDemoCommand(program: Command, ctx: CommandContext): void {
  program
    .command('demo')
    .description(
      'start local Langfuse and judge stand-ins, seed realistic RAG traces and a golden dataset, and run ragwatch against them',
    )
    .option('--personality <generation>', 'Langfuse API generation the stand-in imitates: v3 or v4', 'v3')
    .option('--traces <n>', 'number of demo traces to generate', '120')
    .option('--seed <seed>', 'seed of the generated corpus (same seed, same traces)', '42')
    .option('--keep', 'keep the servers (and the toy RAG service) running until Ctrl-C, and print how to use them')
    .option('--host <host>', 'interface the stand-ins listen on', '127.0.0.1')
    .option('--langfuse-port <port>', 'port of the Langfuse stand-in (0: any free port)', '0')
    .option('--judge-port <port>', 'port of the judge stand-in (0: any free port)', '0')
    .option('--json', 'print a JSON report instead of text')
    .action(async (raw: DemoOptions) => {
      const options = parseOptions(raw);
      // The devkit is loaded only here, so the daemon and the other commands start without it.
      const runDemoCommand = await loadDemoCommand();
      const result = await runDemoCommand({ ...options, keep: Boolean(raw.keep), json: Boolean(raw.json) }, ctx.stdout);
      if (result.problem !== undefined) throw new CliExit(ExitCode.incomplete, [`demo: ${result.problem}`]);
      if (!result.ok) throw new CliExit(ExitCode.incomplete);
    });
}
