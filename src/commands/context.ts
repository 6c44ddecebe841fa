import type { Command } from 'commander';
import { loadConfig, type LoadedConfig, type RagwatchConfig } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { allMetrics } from '../metrics/index.js';
import type { Timers } from '../progress/index.js';
import { createLogger, createRuntime, type Logger, type Runtime } from '../runtime/index.js';
import type { HostLookup } from '../service/index.js';

/** What every command receives: streams and environment are injected so tests can run commands in-process. */
export interface CommandContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Clock and interval timers of the progress output (tests drive them by hand). */
  now?: () => number;
  timers?: Timers;
  /** Resolves `http.host` before `run` starts anything (default: the system resolver). */
  lookup?: HostLookup;
}

export function defaultContext(): CommandContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/**
 * The configuration named by the global `--config` option, checked against the metric registry: the composition
 * root joins the two (config/ and metrics/ do not import each other).
 */
export function loadConfigOf(command: Command, ctx: CommandContext): LoadedConfig {
  const globals = command.optsWithGlobals<{ config?: string }>();
  return loadConfig({ metrics: allMetrics(), file: globals.config, env: ctx.env, cwd: ctx.cwd });
}

/** Loads the configuration named by the global `--config` option, or exits with code 2 and one line per problem. */
export function requireConfig(command: Command, ctx: CommandContext): RagwatchConfig {
  const loaded = loadConfigOf(command, ctx);
  if (!loaded.ok) throw new CliExit(ExitCode.badInput, loaded.problems);
  return loaded.config;
}

/** The command's runtime, built once here and handed down to the jobs' edges and the clients. */
export function runtimeFor(config: RagwatchConfig): Runtime {
  return createRuntime({ logger: loggerFor(config) });
}

export function loggerFor(config: RagwatchConfig): Logger {
  return createLogger({ level: config.log.level });
}
