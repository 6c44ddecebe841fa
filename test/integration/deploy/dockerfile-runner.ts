/**
 * Runs deploy/Dockerfile without Docker: each stage gets a directory standing for its filesystem, COPY
 * copies from a clean copy of the repository (its committed tree, filtered by the Dockerfile's .dockerignore)
 * or from an earlier stage, and the npm commands of RUN lines run there as written. OS-level RUN lines
 * (apt-get, mkdir, chown, ...) are the base image's business: they are checked to be only that and not run,
 * except `mkdir`, which is mirrored. The result says how to start the image's command on this machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import {
  commandArgv,
  dockerignoreFilter,
  envPairs,
  parseDockerfile,
  type Instruction,
} from '../../unit/deploy/support/dockerfile.js';

export interface BuiltStage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user?: string;
  volumes: string[];
  entrypoint: string[];
  cmd: string[];
  healthcheck?: string[];
}

export interface BuildLog {
  ran: { stage: string; command: string; seconds: number }[];
  notRun: { stage: string; command: string }[];
}

const OS_COMMANDS = new Set(['apt-get', 'mkdir', 'chown', 'chmod', 'rm', 'useradd', 'groupadd', 'ln']);
const HANDLED = new Set([
  'FROM',
  'WORKDIR',
  'COPY',
  'RUN',
  'ENV',
  'USER',
  'VOLUME',
  'EXPOSE',
  'HEALTHCHECK',
  'ENTRYPOINT',
  'CMD',
  'LABEL',
  'STOPSIGNAL',
  'ARG',
]);

/** A container path inside a stage directory. */
export const onHost = (root: string, containerPath: string) => join(root, posix.resolve('/', containerPath));

/**
 * A clean copy of the repository (the committed tree, as a fresh clone has it) restricted to what the
 * build context lets through.
 */
export function makeContext(repo: string, dest: string, dockerignore: string): number {
  const included = dockerignoreFilter(dockerignore);
  const archive = join(dest, '..', 'context.tar');
  mkdirSync(dest, { recursive: true });
  execFileSync('git', ['archive', '--format=tar', '-o', archive, 'HEAD'], { cwd: repo });
  const files = execFileSync('tar', ['-tf', archive], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.endsWith('/') && included(f));
  execFileSync('tar', ['-xf', archive, '-C', dest, '--', ...files]);
  rmSync(archive);
  return files.length;
}

export function buildDockerfile(
  dockerfileText: string,
  context: string,
  stagesDir: string,
  env: NodeJS.ProcessEnv,
): { stages: BuiltStage[]; log: BuildLog } {
  const { stages } = parseDockerfile(dockerfileText);
  const built: BuiltStage[] = [];
  const log: BuildLog = { ran: [], notRun: [] };
  for (const stage of stages) {
    const parent = built.find((b) => b.name === stage.from);
    const root = join(stagesDir, stage.name);
    if (parent) cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true });
    else mkdirSync(root, { recursive: true });
    const b: BuiltStage = parent
      ? { ...structuredClone({ ...parent, root: '' }), name: stage.name, root }
      : { name: stage.name, root, workdir: '/', env: {}, volumes: [], entrypoint: [], cmd: [] };
    for (const ins of stage.instructions) apply(b, ins, { context, built, log, env });
    built.push(b);
  }
  return { stages: built, log };
}

function apply(
  b: BuiltStage,
  ins: Instruction,
  ctx: { context: string; built: BuiltStage[]; log: BuildLog; env: NodeJS.ProcessEnv },
) {
  if (!HANDLED.has(ins.keyword))
    throw new Error(`Dockerfile line ${ins.line}: ${ins.keyword} is not simulated by this test`);
  switch (ins.keyword) {
    case 'WORKDIR':
      b.workdir = posix.resolve(b.workdir, ins.body);
      mkdirSync(onHost(b.root, b.workdir), { recursive: true });
      return;
    case 'ENV':
      Object.assign(b.env, envPairs(ins.body));
      return;
    case 'USER':
      b.user = ins.body;
      return;
    case 'VOLUME':
      for (const v of ins.body.trim().startsWith('[') ? commandArgv(ins.body) : ins.body.trim().split(/\s+/)) {
        b.volumes.push(v);
        mkdirSync(onHost(b.root, v), { recursive: true });
      }
      return;
    case 'ENTRYPOINT':
      b.entrypoint = commandArgv(ins.body);
      b.cmd = [];
      return;
    case 'CMD':
      b.cmd = commandArgv(ins.body);
      return;
    case 'HEALTHCHECK':
      b.healthcheck = ins.body.trim() === 'NONE' ? undefined : commandArgv(ins.body.replace(/^CMD\s+/, ''));
      return;
    case 'COPY':
      return copy(b, ins, ctx);
    case 'RUN':
      return run(b, ins, ctx);
    default:
      return; // EXPOSE, LABEL, STOPSIGNAL, ARG: metadata
  }
}

function copy(b: BuiltStage, ins: Instruction, ctx: { context: string; built: BuiltStage[] }) {
  const parts = ins.body.trim().startsWith('[') ? commandArgv(ins.body) : ins.body.trim().split(/\s+/);
  const dest = parts.pop() as string;
  const from = ins.flags.from ? ctx.built.find((s) => s.name === ins.flags.from) : undefined;
  if (ins.flags.from && !from)
    throw new Error(`Dockerfile line ${ins.line}: COPY --from=${ins.flags.from}: no such earlier stage`);
  const destPath = posix.resolve(b.workdir, dest);
  const intoDir = dest.endsWith('/') || parts.length > 1;
  for (const src of parts) {
    const source = from ? onHost(from.root, src) : join(ctx.context, src);
    if (!existsSync(source))
      throw new Error(
        `Dockerfile line ${ins.line}: COPY source ${src} not found${from ? ` in stage ${from.name}` : ' in the build context'}`,
      );
    const target = statSync(source).isDirectory()
      ? onHost(b.root, destPath)
      : onHost(b.root, intoDir ? posix.join(destPath, basename(src)) : destPath);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  }
}

function run(b: BuiltStage, ins: Instruction, ctx: { log: BuildLog; env: NodeJS.ProcessEnv }) {
  const text = ins.body.trim();
  if (text.startsWith('[')) throw new Error(`Dockerfile line ${ins.line}: exec-form RUN is not simulated`);
  const segments = text.split('&&').map((s) => s.trim());
  if (segments.every((s) => /^npm\s/.test(s))) {
    const started = process.hrtime.bigint();
    const res = spawnSync('/bin/sh', ['-c', text], {
      cwd: onHost(b.root, b.workdir),
      env: { ...ctx.env, ...mapEnv(b.root, b.env) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (res.status !== 0) {
      const lines = (res.stdout + res.stderr).split('\n');
      const shown = lines.length > 60 ? [...lines.slice(0, 20), '...', ...lines.slice(-30)] : lines;
      throw new Error(`Dockerfile line ${ins.line}: \`${text}\` exited ${res.status}:\n${shown.join('\n')}`);
    }
    ctx.log.ran.push({ stage: b.name, command: text, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    return;
  }
  for (const s of segments) {
    const command = s.split(/\s+/)[0] as string;
    if (!OS_COMMANDS.has(command))
      throw new Error(
        `Dockerfile line ${ins.line}: \`${s}\` mixes ${command} into an OS-level RUN; keep npm work in its own RUN line`,
      );
    if (command === 'mkdir')
      for (const p of s
        .split(/\s+/)
        .slice(1)
        .filter((a) => a.startsWith('/')))
        mkdirSync(onHost(b.root, p), { recursive: true });
  }
  ctx.log.notRun.push({ stage: b.name, command: text });
}

/** The stage's environment with absolute container paths moved into its directory. */
export function mapEnv(root: string, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, mapPath(root, v)]));
}

/** An absolute path whose first segment exists in the stage is a path inside the image. */
export function mapPath(root: string, value: string): string {
  if (!value.startsWith('/')) return value;
  const top = value.split('/')[1];
  return top && existsSync(join(root, top)) ? onHost(root, value) : value;
}

/** Lockfile entries that `npm ci --omit=dev` must leave out. */
export function devOnlyPackages(lockfile: string): string[] {
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, p]) => path.startsWith('node_modules/') && p.dev === true)
    .map(([path]) => path);
}
