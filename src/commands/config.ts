import type { Command } from 'commander';
import { stringify } from 'yaml';
import { configInEffect, maskSecrets } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { loadConfigOf, type CommandContext } from './context.js';

export function registerConfigCommand(program: Command, ctx: CommandContext): void {
  const config = program.command('config').description('inspect the configuration');
  config
    .command('check')
    .description(
      'validate the configuration and print the values in effect (secrets masked; of the state keys, those of the backend in use)',
    )
    .option('--json', 'print JSON instead of YAML')
    .action((options: { json?: boolean }, command: Command) => {
      const loaded = loadConfigOf(command, ctx);
      if (!loaded.ok) throw new CliExit(ExitCode.badInput, loaded.problems);
      const masked = maskSecrets(configInEffect(loaded.config));
      if (options.json) {
        ctx.stdout.write(`${JSON.stringify(masked, null, 2)}\n`);
        return;
      }
      const source = loaded.file ?? 'defaults (no config file)';
      const env = loaded.envKeys.length > 0 ? `; environment overrides: ${loaded.envKeys.join(', ')}` : '';
      ctx.stdout.write(`# config ok: ${source}${env}\n${stringify(masked)}`);
    });
}
