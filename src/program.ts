import { Command, CommanderError } from 'commander';
import {
  registerAnonymizeCommand,
  registerCalibrateCommand,
  registerConfigCommand,
  registerDemoCommand,
  defaultContext,
  type CommandContext,
  registerDoctorCommand,
  registerEvaluateCommand,
  registerExperimentCommand,
  registerExtractCommand,
  registerGoldenCommand,
  registerRunCommand,
  registerRetryDeadCommand,
  registerSampleCommand,
  registerStateCommand,
  registerStatusCommand,
} from './commands/index.js';
import { InputError } from './errors.js';
import { CliExit, ExitCode } from './exit-codes.js';
import { controlFree, withoutControls } from './internal/index.js';
import { exitCodesHelp, outcomesHelp } from './outcomes.js';
import { isStateError } from './state/index.js';
import { VERSION } from './version.js';

export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('ragwatch')
    .description(
      'Keeps a RAG service honest: samples Langfuse traces, anonymizes them, scores RAGAS metrics with an on-prem judge and writes the scores back.',
    )
    .version(VERSION, '-V, --version')
    .option('-c, --config <file>', 'YAML configuration file (default: ./ragwatch.yaml if present)')
    .addHelpText('after', outcomesHelp())
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    });
  registerAnonymizeCommand(program, ctx);
  registerCalibrateCommand(program, ctx);
  registerConfigCommand(program, ctx);
  registerDemoCommand(program, ctx);
  registerDoctorCommand(program, ctx);
  registerEvaluateCommand(program, ctx);
  registerExperimentCommand(program, ctx);
  registerExtractCommand(program, ctx);
  registerGoldenCommand(program, ctx);
  registerRunCommand(program, ctx);
  registerSampleCommand(program, ctx);
  registerStatusCommand(program, ctx);
  registerRetryDeadCommand(program, ctx);
  registerStateCommand(program, ctx);
  addExitCodes(program, []);
  return program;
}

/** Every command's `--help` ends with its row of the outcome table (src/outcomes.ts). */
function addExitCodes(command: Command, path: readonly string[]): void {
  for (const sub of command.commands) {
    const subPath = [...path, sub.name()];
    const help = exitCodesHelp(subPath);
    if (help) sub.addHelpText('after', help);
    addExitCodes(sub, subPath);
  }
}

/** Runs the CLI and resolves to the process exit code. */
export async function main(argv: string[], given: CommandContext = defaultContext()): Promise<number> {
  // What commands print comes partly from outside (comments, dataset texts, traces): no control characters.
  const ctx = { ...given, stdout: controlFree(given.stdout) };
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CliExit) {
      for (const line of err.lines) ctx.stderr.write(`${withoutControls(line)}\n`);
      return err.code;
    }
    // Configuration that only a service's answer shows wrong (a score config or an annotation queue of the name
    // ragwatch is configured with, made by someone else): its lines, exit 2, whichever command met it.
    if (err instanceof InputError) {
      for (const line of err.lines) ctx.stderr.write(`${line}\n`);
      return ExitCode.badInput;
    }
    // A state file failing mid-command (a full disk while sampling): the same line and code as at start-up.
    if (isStateError(err)) {
      ctx.stderr.write(`${withoutControls(err.message)}\n`);
      return err.isInput ? ExitCode.badInput : ExitCode.incomplete;
    }
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return ExitCode.ok;
      return ExitCode.badInput;
    }
    ctx.stderr.write(`ragwatch: ${withoutControls(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    return 1;
  }
}
