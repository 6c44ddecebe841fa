import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandArgv, envPairs, parseDockerfile } from './support/dockerfile.js';
import { COMPOSE_FILE, DEPLOY, DOCKERFILE, KNOWN_ENV, readText, readYaml } from './support/paths.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { existsSync } from 'node:fs';
import { loadConfig } from '../../helpers/config.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment: Record<string, string>;
  volumes: string[];
  ports: string[];
  stop_grace_period?: string;
  networks?: string[];
}
const compose = readYaml<{
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks: Record<string, { external?: boolean }>;
}>(COMPOSE_FILE);
const service = compose.services.ragwatch!;

/** Compose's variable interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (_, name: string, colon: string, op: string, arg: string) => {
      const value = env[name];
      const unset = value === undefined || (colon === ':' && value === '');
      if (op === '-') return unset ? arg : (value as string);
      if (op === '?') {
        if (unset) throw new Error(`required variable ${name} is missing: ${arg}`);
        return value as string;
      }
      return value ?? '';
    },
  );
}

const seconds = (duration: string) => {
  let total = 0;
  for (const m of duration.matchAll(/(\d+(?:\.\d+)?)(h|m|s|ms)/g))
    total += Number(m[1]) * { h: 3600, m: 60, s: 1, ms: 0.001 }[m[2] as 'h' | 'm' | 's' | 'ms'];
  return total;
};

describe('deploy/compose.yaml', () => {
  const deploymentEnv = {
    LANGFUSE_PUBLIC_KEY: 'pk-lf-1234',
    LANGFUSE_SECRET_KEY: 'sk-lf-5678',
    RAGWATCH_JUDGE_MODEL: 'Qwen/Qwen3-32B',
    RAGWATCH_EMBEDDINGS_MODEL: 'BAAI/bge-m3',
  };
  const effectiveEnv = (env: Record<string, string>) =>
    Object.fromEntries(Object.entries(service.environment).map(([k, v]) => [k, interpolate(String(v), env)]));
  const configMount = () => {
    const env = effectiveEnv(deploymentEnv);
    const mount = service.volumes.map((v) => v.split(':')).find(([, target]) => target === env.RAGWATCH_CONFIG);
    return { host: resolve(DEPLOY, mount![0]!), env };
  };

  it('sets only variables ragwatch reads', () => {
    for (const name of Object.keys(service.environment)) expect(KNOWN_ENV, name).toContain(name);
  });

  it('turns the deployment’s environment into a valid configuration pointing at the external services', () => {
    const { host, env } = configMount();
    const loaded = loadConfig({ file: host, env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    expect(loaded.config.langfuse.secretKey).toBe('sk-lf-5678');
    expect(loaded.config.judge.model).toBe('Qwen/Qwen3-32B');
    expect(loaded.config.embeddings.model).toBe('BAAI/bge-m3');
    expect(new URL(loaded.config.langfuse.baseUrl).hostname).toBe('langfuse-web');
    expect(new URL(loaded.config.judge.baseUrl).hostname).toBe('vllm');
    // Empty embedding settings fall back to the judge's.
    expect(loaded.config.embeddings.baseUrl).toBeUndefined();
  });

  it('refuses to start without the Langfuse keys and the judge and embeddings models, and never holds a key itself', () => {
    for (const missing of Object.keys(deploymentEnv)) {
      const env = { ...deploymentEnv, [missing]: undefined } as unknown as Record<string, string>;
      expect(() => effectiveEnv(env), missing).toThrow(new RegExp(missing));
    }
    for (const secret of ['LANGFUSE_PUBLIC_KEY', 'LANGFUSE_SECRET_KEY'])
      expect(service.environment[secret]).toMatch(/^\$\{[A-Z_]+:\?/);
  });

  it('keeps the state in a named volume where the image declares it and the config puts the state file', () => {
    const { stages } = parseDockerfile(readText(DOCKERFILE));
    const runtime = stages[stages.length - 1]!;
    const volumes = runtime.instructions.filter((i) => i.keyword === 'VOLUME').flatMap((v) => commandArgv(v.body));
    const { host, env } = configMount();
    const loaded = loadConfig({ file: host, env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const state = service.volumes.map((v) => v.split(':')).find(([source]) => source && source in compose.volumes);
    expect(volumes).toContain(state?.[1]);
    expect(dirname(loaded.config.state.path)).toBe(state?.[1]);
    const imageEnv = Object.assign(
      {},
      ...runtime.instructions.filter((i) => i.keyword === 'ENV').map((i) => envPairs(i.body)),
    );
    expect(dirname(imageEnv.RAGWATCH_STATE_PATH)).toBe(state?.[1]);
  });

  it('publishes the configured port and stops more slowly than the shutdown deadline', () => {
    const { host, env } = configMount();
    const loaded = loadConfig({ file: host, env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const containerPorts = service.ports.map((p) => Number(interpolate(p, {}).split(':').pop()));
    expect(containerPorts).toContain(loaded.config.http.port);
    expect(seconds(service.stop_grace_period ?? '10s')).toBeGreaterThan(loaded.config.http.shutdownDeadlineSeconds);
  });

  it('runs with the same configuration as the Kubernetes base', () => {
    const { host } = configMount();
    const compose = loadConfig({ file: host, env: {} });
    const k8s = loadConfig({ file: join(DEPLOY, 'k8s', 'base', 'ragwatch.yaml'), env: {} });
    if (!compose.ok || !k8s.ok) throw new Error('invalid deployment configuration');
    expect(k8s.config).toEqual(compose.config);
  });

  it('builds with deploy/Dockerfile from the repository root and joins an external network', () => {
    const context = resolve(DEPLOY, service.build!.context);
    expect(context).toBe(resolve(REPO_ROOT));
    expect(existsSync(join(context, service.build!.dockerfile))).toBe(true);
    for (const n of service.networks ?? []) if (n !== 'default') expect(compose.networks[n]?.external).toBe(true);
  });
});

describe('deploy/compose.yaml, the postgres profile', () => {
  const replica = compose.services['ragwatch-replica'] as ComposeService & {
    profiles?: string[];
    depends_on?: Record<string, unknown>;
  };
  const db = compose.services['state-db'] as ComposeService & { profiles?: string[] };
  const env = {
    LANGFUSE_PUBLIC_KEY: 'pk',
    LANGFUSE_SECRET_KEY: 'sk',
    RAGWATCH_JUDGE_MODEL: 'm',
    RAGWATCH_EMBEDDINGS_MODEL: 'e',
    RAGWATCH_STATE_DB_PASSWORD: 'pw',
  };

  it('runs replicas on the PostgreSQL state only under the profile, the password from the environment', () => {
    expect(replica.profiles).toEqual(['postgres']);
    expect(db.profiles).toEqual(['postgres']);
    expect(service).not.toHaveProperty('profiles');
    for (const name of Object.keys(replica.environment)) expect(KNOWN_ENV, name).toContain(name);
    expect(Object.keys(replica.depends_on ?? {})).toEqual(['state-db']);
    const resolved = Object.fromEntries(
      Object.entries(replica.environment).map(([k, v]) => [k, interpolate(String(v), env)]),
    );
    const mount = replica.volumes.map((v) => v.split(':')).find(([, target]) => target === resolved.RAGWATCH_CONFIG);
    const loaded = loadConfig({ file: resolve(DEPLOY, mount![0]!), env: resolved });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    expect(new URL(loaded.config.state.url!).hostname).toBe('state-db');
    expect(loaded.config.state.url).toContain(':pw@');
    expect(() =>
      interpolate(String(replica.environment.RAGWATCH_STATE_URL), {
        ...env,
        RAGWATCH_STATE_DB_PASSWORD: undefined,
      } as never),
    ).toThrow(/RAGWATCH_STATE_DB_PASSWORD/);
    // No per-replica volume: the state and the reports live in PostgreSQL; /tmp is the only writable place.
    expect(replica.volumes.map((v) => v.split(':')[1])).toEqual(['/etc/ragwatch/ragwatch.yaml']);
    expect((replica as { tmpfs?: string[] }).tmpfs).toEqual(['/tmp']);
  });
});

describe('one truth about starting deploy/compose.yaml', () => {
  type Service = { profiles?: string[]; depends_on?: Record<string, unknown> | string[] };
  const services = compose.services as unknown as Record<string, Service>;

  /** Every `docker compose … up …` a reader is told to run: shell blocks of the docs, comment lines of the file. */
  function commands(): Array<{ where: string; command: string }> {
    const out: Array<{ where: string; command: string }> = [];
    for (const doc of ['README.md', 'docs/operations.md']) {
      const text = readText(join(REPO_ROOT, doc));
      for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g))
        for (const line of block[1]!.split('\n'))
          if (/^docker compose .*\bup\b/.test(line.trim())) out.push({ where: doc, command: line.trim() });
    }
    for (const line of readText(COMPOSE_FILE).split('\n')) {
      const m = /^#\s+(docker compose .*\bup\b.*)$/.exec(line.trim());
      if (m) out.push({ where: 'deploy/compose.yaml', command: m[1]!.trim() });
    }
    return out;
  }

  /** What `docker compose [--profile P] up [flags] [services]` starts, as compose resolves it. */
  function started(command: string): Set<string> {
    const words = command.split(/\s+/).slice(2);
    const profiles = new Set<string>();
    const named: string[] = [];
    let afterUp = false;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w === '--profile') profiles.add(words[++i]!);
      else if (w === 'up') afterUp = true;
      else if (w === '--scale') i++;
      else if (afterUp && !w.startsWith('-')) named.push(w);
    }
    const chosen = named.length
      ? named
      : Object.keys(services).filter((s) => (services[s]!.profiles ?? []).every((p) => profiles.has(p)));
    const out = new Set<string>();
    const visit = (name: string) => {
      expect(services[name], `${command}: no service ${name}`).toBeDefined();
      if (out.has(name)) return;
      out.add(name);
      const deps = services[name]!.depends_on ?? [];
      for (const d of Array.isArray(deps) ? deps : Object.keys(deps)) visit(d);
    };
    chosen.forEach(visit);
    return out;
  }

  it('the docs and the file give the same commands, and the postgres one never starts the SQLite service', () => {
    const all = commands();
    const postgres = all.filter((c) => c.command.includes('--profile postgres'));
    expect(postgres.map((c) => c.where).sort()).toEqual(['deploy/compose.yaml', 'docs/operations.md']);
    expect(new Set(postgres.map((c) => c.command)).size, JSON.stringify(postgres)).toBe(1);
    expect([...started(postgres[0]!.command)].sort()).toEqual(['ragwatch-replica', 'state-db']);
    // The plain command starts the SQLite service alone; the postgres profile without naming services would
    // start both states, and the docs say so rather than show it.
    for (const c of all.filter((c) => !c.command.includes('--profile')))
      expect([...started(c.command)]).toEqual(['ragwatch']);
    expect([...started('docker compose --profile postgres up -d')].sort()).toEqual([
      'ragwatch',
      'ragwatch-replica',
      'state-db',
    ]);
    expect(readText(join(REPO_ROOT, 'docs/operations.md'))).toContain(
      'Not `docker compose --profile postgres up -d` alone',
    );
  });
});
