import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import {
  commandArgv,
  dockerignoreFilter,
  envPairs,
  type Instruction,
  lineage,
  parseDockerfile,
} from './support/dockerfile.js';
import { DOCKERFILE, readText } from './support/paths.js';
import { parseConfig } from '../../helpers/config.js';

const { stages } = parseDockerfile(readText(DOCKERFILE));
const runtime = stages[stages.length - 1]!;
const all = (keyword: string, list: Instruction[] = runtime.instructions) => list.filter((i) => i.keyword === keyword);
const last = (keyword: string) => all(keyword).pop();
const runtimeEnv = Object.assign({}, ...all('ENV').map((i) => envPairs(i.body))) as Record<string, string>;
const stageRuns = (name: string) =>
  lineage(stages, name)
    .flatMap((s) => all('RUN', s.instructions))
    .map((i) => i.body);

describe('deploy/Dockerfile', () => {
  it('is multi-stage on node:20-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const images = stages.map((s) => s.from).filter((from) => !stages.some((t) => t.name === from));
    expect(new Set(images)).toEqual(new Set(['node:20-slim']));
  });

  it('builds dist/ with dev dependencies in one stage and installs production dependencies only for the runtime', () => {
    const copies = all('COPY').filter((c) => c.flags.from);
    const fromStage = (dest: string) =>
      copies.find((c) => c.body.trim().split(/\s+/).pop()?.replace(/\/$/, '') === dest)?.flags.from;
    const modules = fromStage('./node_modules');
    const dist = fromStage('./dist');
    expect(modules && dist).toBeTruthy();
    expect(stageRuns(modules!).some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(stageRuns(dist!).some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    // npm installs a workspace's (the devkit's) dependencies even with --omit=dev: no install takes them.
    const installs = stages
      .flatMap((s) => all('RUN', s.instructions))
      .map((i) => i.body)
      .filter((r) => /\bnpm (ci|install|i)\b/.test(r));
    expect(installs.length).toBeGreaterThanOrEqual(2);
    expect(installs.filter((r) => !/--workspaces=false\b/.test(r))).toEqual([]);
    // Nothing in the runtime stage itself installs dev dependencies.
    expect(stageRuns(runtime.name).filter((r) => /\bnpm (ci|install|i)\b/.test(r) && !/--omit=dev/.test(r))).toEqual(
      [],
    );
  });

  it('runs in production mode as a non-root user under an init process', () => {
    expect(runtimeEnv.NODE_ENV).toBe('production');
    const user = last('USER')?.body ?? 'root';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
    const entrypoint = commandArgv(last('ENTRYPOINT')!.body);
    const init = entrypoint[0]!.split('/').pop();
    expect(['tini', 'dumb-init']).toContain(init);
    expect(stageRuns(runtime.name).some((r) => r.includes(`install`) && r.includes(init!))).toBe(true);
    const cmd = commandArgv(last('CMD')!.body);
    expect(cmd.slice(0, 1)).toEqual(['node']);
    expect(cmd.slice(-1)).toEqual(['run']);
  });

  it('declares the state directory as a volume and points the state file into it', () => {
    const volumes = all('VOLUME').flatMap((v) =>
      commandArgv(v.body.startsWith('[') ? v.body : JSON.stringify(v.body.split(/\s+/))),
    );
    expect(volumes).toContain(dirname(runtimeEnv.RAGWATCH_STATE_PATH!));
    expect(last('WORKDIR')?.body).toBe(volumes[0]);
  });

  it('has a HEALTHCHECK on /healthz and exposes the default port', () => {
    const health = last('HEALTHCHECK')!;
    expect(health.body).toMatch(/^CMD /);
    expect(health.body).toContain('/healthz');
    expect(health.body).toContain('RAGWATCH_HTTP_PORT');
    expect(last('EXPOSE')?.body).toBe(String(parseConfig({}).http.port));
    expect(health.body).toContain(String(parseConfig({}).http.port));
  });

  it('keeps the build context to what the stages copy', () => {
    const included = dockerignoreFilter(readText(`${DOCKERFILE}.dockerignore`));
    const sources = stages
      .flatMap((s) => all('COPY', s.instructions))
      .filter((c) => !c.flags.from)
      .flatMap((c) => c.body.trim().split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(existsSync(join(REPO_ROOT, src)), `${src} exists`).toBe(true);
      expect(included(src), `${src} is in the build context`).toBe(true);
    }
    for (const secret of [
      'node_modules/x',
      '.git/config',
      'ragwatch.db',
      'ragwatch.yaml',
      '.env',
      'dist/cli.js',
      'test/x.test.ts',
    ]) {
      expect(included(secret), secret).toBe(false);
    }
  });
});

describe('dockerignore matching', () => {
  it('lets the last matching rule decide, for a path or any parent directory', () => {
    const f = dockerignoreFilter('# comment\n*\n!src\nsrc/**/*.test.ts\n!keep/**\n*.db\n');
    expect(f('src/cli.ts')).toBe(true);
    expect(f('src/a/b.test.ts')).toBe(false);
    expect(f('node_modules/x/index.js')).toBe(false);
    // Patterns are anchored at the context root: `*.db` is a top-level file only.
    expect(f('x.db')).toBe(false);
    expect(f('keep/x.db')).toBe(true);
    expect(f('keep/y.txt')).toBe(true);
  });
});
