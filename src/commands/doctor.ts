import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { RagwatchConfig } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { mappingProblems } from '../extract/index.js';
import {
  checkExperiment,
  checkEmbeddings,
  checkJudgeModel,
  checkStructuredOutput,
  describeError,
  type Check,
  type DoctorDeps,
  type Verdict,
} from '../doctor/index.js';
import { langfuseHttpFromConfig, detectApiGeneration, LangfuseApiError } from '../langfuse/index.js';
import { isStateError, openStateReadOnly } from '../state/index.js';
import { requireConfig, type CommandContext } from './context.js';

/**
 * `ragwatch doctor`: checks what a first deployment gets wrong, one verdict per check. Exit 0 when every check
 * passes, 3 when something is unreachable or wrong, 2 when the configuration itself is unusable (including
 * keys a dependency rejects and a state file that cannot be ragwatch's).
 */

export type { Check, DoctorDeps, Verdict };

export interface DoctorReport {
  checks: Check[];
  /** Configuration problems that make the checks meaningless (exit 2). */
  configProblems: string[];
}

export function registerDoctorCommand(program: Command, ctx: CommandContext): void {
  program
    .command('doctor')
    .description(
      'check Langfuse keys and API generation, the judge and embeddings models, structured output, the state path and, with the experiment enabled, its dataset and RAG service',
    )
    .option('--json', 'print the checks as JSON')
    .option('--timeout <seconds>', 'deadline of each network check', '20')
    .action(async (options: { json?: boolean; timeout: string }, command: Command) => {
      const config = requireConfig(command, ctx);
      const seconds = Number(options.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0)
        throw new CliExit(ExitCode.badInput, [
          `doctor: --timeout must be a positive number of seconds (got ${options.timeout})`,
        ]);
      const report = await runDoctor(config, { cwd: ctx.cwd, env: ctx.env, timeoutMs: seconds * 1000 });
      if (options.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        for (const line of formatReport(report)) ctx.stdout.write(`${line}\n`);
      }
      const code = exitCodeFor(report);
      if (code !== ExitCode.ok) throw new CliExit(code);
    });
}

export function exitCodeFor(report: DoctorReport): number {
  if (report.configProblems.length > 0) return ExitCode.badInput;
  const failed = report.checks.filter((c) => c.verdict === 'fail');
  if (failed.some((c) => c.configuration)) return ExitCode.badInput;
  return failed.length > 0 ? ExitCode.incomplete : ExitCode.ok;
}

export function formatReport(report: DoctorReport): string[] {
  const width = Math.max(...report.checks.map((c) => c.name.length), 8);
  const lines = report.configProblems.map((p) => `FAIL  ${'config'.padEnd(width)}  ${p}`);
  for (const c of report.checks)
    lines.push(
      `${c.verdict === 'ok' ? 'ok  ' : c.verdict === 'warn' ? 'WARN' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}`,
    );
  const failed = report.checks.filter((c) => c.verdict === 'fail').length + report.configProblems.length;
  const warned = report.checks.filter((c) => c.verdict === 'warn').length;
  lines.push(
    failed === 0
      ? `doctor: all ${report.checks.length} checks passed${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}`
      : `doctor: ${failed} check${failed > 1 ? 's' : ''} failed`,
  );
  return lines;
}

export async function runDoctor(config: RagwatchConfig, deps: DoctorDeps): Promise<DoctorReport> {
  const configProblems = configurationProblems(config);
  if (configProblems.length > 0) return { checks: [], configProblems };
  const timeoutMs = Math.min(deps.timeoutMs ?? 20_000, config.langfuse.timeoutMs);
  const secrets = [config.langfuse.secretKey, config.judge.apiKey, config.embeddings.apiKey ?? ''].filter(
    (s) => s.length >= 4 && s !== 'EMPTY',
  );
  const scrub = (c: Check): Check => ({
    ...c,
    detail: secrets.reduce((d, s) => d.split(s).join('[redacted]'), c.detail),
  });

  const judge = async () => {
    const model = await checkJudgeModel(config, deps, timeoutMs);
    return [model, await checkStructuredOutput(config, deps, timeoutMs, model)];
  };
  const checks = await Promise.all([
    checkLangfuse(config, deps, timeoutMs).then((c) => [c]),
    judge(),
    checkEmbeddings(config, deps, timeoutMs).then((c) => [c]),
    checkState(config, deps.cwd).then((c) => [c]),
    checkExperiment(config, deps, timeoutMs),
  ]);
  const sampling = checkSamplingRate(config);
  return { checks: [...checks.flat(), ...(sampling ? [sampling] : [])].map(scrub), configProblems: [] };
}

function configurationProblems(config: RagwatchConfig): string[] {
  const problems: string[] = [];
  if (!config.langfuse.publicKey) problems.push('langfuse.publicKey is not set (LANGFUSE_PUBLIC_KEY)');
  if (!config.langfuse.secretKey) problems.push('langfuse.secretKey is not set (LANGFUSE_SECRET_KEY)');
  problems.push(...mappingProblems(config.online.extract));
  return problems;
}

async function checkLangfuse(config: RagwatchConfig, deps: DoctorDeps, timeoutMs: number): Promise<Check> {
  const http = langfuseHttpFromConfig(
    { langfuse: { ...config.langfuse, timeoutMs, maxAttempts: Math.min(2, config.langfuse.maxAttempts) } },
    { ...(deps.fetch ? { fetch: deps.fetch } : {}), initialBackoffMs: 200, maxRetryAfterMs: 2000 },
  );
  const where = config.langfuse.baseUrl;
  try {
    const detected = await detectApiGeneration(http, 'auto');
    const configured = config.langfuse.apiGeneration;
    if (configured !== 'auto' && configured !== detected)
      return {
        name: 'langfuse',
        verdict: 'fail',
        detail: `${where}: keys accepted, but the server speaks the ${detected} API while langfuse.apiGeneration says ${configured}`,
      };
    const how = configured === 'auto' ? 'auto-detected' : 'as configured';
    const path = detected === 'v3' ? 'traces API' : 'v2 observations API';
    return {
      name: 'langfuse',
      verdict: 'ok',
      detail: `${where}: keys accepted, API generation ${detected} (${path}, ${how})`,
    };
  } catch (err) {
    if (err instanceof LangfuseApiError && (err.status === 401 || err.status === 403))
      return {
        name: 'langfuse',
        verdict: 'fail',
        detail: `${where}: keys rejected (HTTP ${err.status}): check LANGFUSE_PUBLIC_KEY / LANGFUSE_SECRET_KEY and the project`,
        configuration: true,
      };
    return { name: 'langfuse', verdict: 'fail', detail: `${where}: ${describeError(err, where)}` };
  }
}

/** The state the configuration names: the PostgreSQL server and schema, or the SQLite file's path. */
async function checkState(config: Pick<RagwatchConfig, 'state'>, cwd: string): Promise<Check> {
  const s = config.state;
  if (!s.url) return checkStatePath(config, cwd);
  const { probePostgres } = await import('../state/postgres/index.js');
  const probe = await probePostgres({ url: s.url, schema: s.schema, connectTimeoutMs: s.connectTimeoutMs, tls: s.tls });
  const configuration = probe.configuration ? { configuration: true as const } : {};
  return { name: 'state', verdict: probe.ok ? 'ok' : 'fail', detail: probe.detail, ...configuration };
}

export function checkStatePath(config: Pick<RagwatchConfig, 'state'>, cwd: string): Check {
  const path = resolve(cwd, config.state.path);
  try {
    if (existsSync(path)) {
      if (statSync(path).isDirectory())
        return {
          name: 'state',
          verdict: 'fail',
          detail: `${path} is a directory; state.path names the database file`,
          configuration: true,
        };
      const unusable = stateFileProblem(path);
      if (unusable) return { name: 'state', verdict: 'fail', detail: unusable.message, configuration: true };
      accessSync(path, constants.R_OK | constants.W_OK);
      accessSync(dirname(path), constants.W_OK);
      return { name: 'state', verdict: 'ok', detail: `${path} exists and is writable` };
    }
    let dir = dirname(path);
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
    if (!statSync(dir).isDirectory())
      return { name: 'state', verdict: 'fail', detail: `${path}: ${dir} is not a directory` };
    accessSync(dir, constants.W_OK);
    const note = dir === dirname(path) ? '' : ` (${dirname(path)} will be created)`;
    return { name: 'state', verdict: 'ok', detail: `${path} will be created in a writable directory${note}` };
  } catch (err) {
    return {
      name: 'state',
      verdict: 'fail',
      detail: `${path}: not writable (${(err as NodeJS.ErrnoException).code ?? describeError(err)})`,
    };
  }
}

/** The file exists: is it ragwatch's state (not empty, SQLite, ours, not newer)? */
function stateFileProblem(path: string): Error | null {
  try {
    openStateReadOnly(path)?.close();
    return null;
  } catch (err) {
    if (isStateError(err)) return err;
    throw err;
  }
}

function checkSamplingRate(config: RagwatchConfig): Check | null {
  const rate = config.sampling.rate;
  if (rate >= 0.05 && rate <= 0.1) return null;
  return { name: 'sampling', verdict: 'warn', detail: `sampling.rate ${rate} is outside the recommended 0.05–0.10` };
}
