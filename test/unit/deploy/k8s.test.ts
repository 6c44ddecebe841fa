import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { commandArgv, parseDockerfile } from './support/dockerfile.js';
import {
  apiGroup,
  type K8sObject,
  OPERATOR_GROUPS,
  podContainers,
  podSpec,
  podVolumes,
  readKustomization,
  readObjects,
  renderKustomization,
  schemaProblems,
  strategicMerge,
} from './support/k8s.js';
import {
  ALERTS_FILE,
  DOCKERFILE,
  EXAMPLE_OVERLAY_DIR,
  K8S_DIR,
  KNOWN_ENV,
  OPERATOR_COMPONENT_DIR,
  readText,
  readYaml,
  type RuleFile,
} from './support/paths.js';
import { loadConfig, parseConfig } from '../../helpers/config.js';

const manifests = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml' && f !== 'ragwatch.yaml')
    .map((f) => join(dir, f));
const manifestFiles = [...manifests(K8S_DIR), ...manifests(OPERATOR_COMPONENT_DIR)];
const rendered = renderKustomization(K8S_DIR);
const overlay = renderKustomization(EXAMPLE_OVERLAY_DIR);
const oneOf = (objects: K8sObject[], kind: string, where: string): K8sObject => {
  const found = objects.filter((o) => o.kind === kind);
  expect(found, `exactly one ${kind} in ${where}`).toHaveLength(1);
  return found[0] as K8sObject;
};
const one = (kind: string) => oneOf(rendered, kind, 'the rendered base');
const inOverlay = (kind: string) => oneOf(overlay, kind, 'the rendered example overlay');
const envOf = (deployment: K8sObject) =>
  ((podContainers(deployment)[0] as unknown as Container).env ?? []).map((e) => [e.name, e.value] as const);
const byName = (kind: string, name: string) => rendered.find((o) => o.kind === kind && o.metadata.name === name);
const renderedConfig = () => {
  const cm = rendered.find((o) => o.kind === 'ConfigMap') as K8sObject & { data: Record<string, string> };
  return parseConfig(parse(cm.data['ragwatch.yaml'] as string));
};
type Probe = { httpGet?: { path: string; port: string | number } };
type Container = {
  env?: { name: string; value?: string }[];
  envFrom?: { secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
};

describe('deploy/k8s manifests', () => {
  it.each(manifestFiles)('%s validates against its Kubernetes schema', async (file) => {
    const objects = readObjects(file);
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) expect(await schemaProblems(o), `${file}: ${o.kind}/${o.metadata?.name}`).toEqual([]);
  });

  it('the schemas catch a broken manifest (the validator is not a no-op)', async () => {
    const deployment = structuredClone(one('Deployment')) as K8sObject & { spec: { strategy: { type: unknown } } };
    deployment.spec.strategy.type = 7;
    expect((await schemaProblems(deployment)).join()).toMatch(/strategy\/type must be string/);
    const rule = structuredClone(inOverlay('PrometheusRule')) as K8sObject & {
      spec: { groups: { rules: { for?: string }[] }[] };
    };
    (rule.spec.groups[0]!.rules[0] as { for?: string }).for = 'ten minutes';
    expect((await schemaProblems(rule)).join()).toMatch(/for must match pattern/);
  });
});

describe('deploy/k8s kustomize base', () => {
  it('lists only files that exist, and renders objects that all validate', async () => {
    const k = readKustomization(K8S_DIR);
    expect(k.kind).toBe('Kustomization');
    expect(k.resources?.length).toBeGreaterThan(0);
    for (const o of rendered) expect(await schemaProblems(o), `${o.kind}/${o.metadata.name}`).toEqual([]);
    expect(rendered.map((o) => o.kind).sort()).toEqual(
      ['ConfigMap', 'Deployment', 'PersistentVolumeClaim', 'Service', 'ServiceAccount'].sort(),
    );
    for (const o of rendered) expect(o.metadata.labels?.['app.kubernetes.io/part-of']).toBe('ragwatch');
  });

  it('holds only core kinds, so a cluster without the Prometheus Operator can apply it', () => {
    expect(rendered.filter((o) => OPERATOR_GROUPS.includes(apiGroup(o))).map((o) => o.kind)).toEqual([]);
    for (const o of rendered) expect(['', 'apps'], `${o.apiVersion}/${o.kind}`).toContain(apiGroup(o));
  });

  it('keeps the example Secret out of the base (keys never live in the repository)', () => {
    expect(readKustomization(K8S_DIR).resources).not.toContain('secret.example.yaml');
    expect(rendered.some((o) => o.kind === 'Secret')).toBe(false);
  });

  it('generates the ConfigMap from a config file ragwatch accepts', () => {
    const loaded = loadConfig({ file: join(K8S_DIR, 'ragwatch.yaml'), env: {} });
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
    const cm = one('ConfigMap') as K8sObject & { data: Record<string, string> };
    expect(Object.keys(cm.data)).toEqual(['ragwatch.yaml']);
  });
});

describe('the Deployment', () => {
  const deployment = one('Deployment') as K8sObject & {
    spec: {
      replicas: number;
      strategy: { type: string };
      selector: { matchLabels: Record<string, string> };
      template: { metadata: { labels: Record<string, string> } };
    };
  };
  const pod = podSpec(deployment) as Record<string, unknown> & {
    terminationGracePeriodSeconds: number;
    securityContext: Record<string, unknown>;
  };
  const [container] = podContainers(deployment) as unknown as Container[];
  const config = renderedConfig();

  it('runs one replica with the Recreate strategy (one writer on the SQLite volume)', () => {
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');
    for (const [k, v] of Object.entries(deployment.spec.selector.matchLabels))
      expect(deployment.spec.template.metadata.labels[k]).toBe(v);
  });

  it('probes /healthz for liveness and /readyz for readiness on the configured port', () => {
    const portOf = (p: Probe) => {
      const port = p.httpGet?.port;
      return typeof port === 'number' ? port : container?.ports?.find((cp) => cp.name === port)?.containerPort;
    };
    expect(container?.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(portOf(container!.livenessProbe!)).toBe(config.http.port);
    expect(portOf(container!.readinessProbe!)).toBe(config.http.port);
    if (container?.startupProbe) expect(container.startupProbe.httpGet?.path).toBe('/healthz');
  });

  it('gives the graceful shutdown more time than its deadline', () => {
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(config.http.shutdownDeadlineSeconds);
  });

  it('sets resource requests and a memory limit', () => {
    expect(container?.resources?.requests?.cpu).toBeTruthy();
    expect(container?.resources?.requests?.memory).toBeTruthy();
    expect(container?.resources?.limits?.memory).toBeTruthy();
  });

  it('mounts the config where RAGWATCH_CONFIG points and the PVC where the state file lives', () => {
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value]));
    const mounts = container?.volumeMounts ?? [];
    const volumes = podVolumes(deployment) as {
      name: string;
      configMap?: { name: string };
      persistentVolumeClaim?: { claimName: string };
    }[];
    const mountOf = (path: string) => mounts.find((m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`));

    const configMount = mountOf(env.RAGWATCH_CONFIG as string);
    const configVolume = volumes.find((v) => v.name === configMount?.name);
    expect(configVolume?.configMap?.name).toBe(one('ConfigMap').metadata.name);
    expect(configMount?.readOnly).toBe(true);

    const stateMount = mountOf(config.state.path);
    expect(stateMount?.mountPath).toBe(dirname(config.state.path));
    const stateVolume = volumes.find((v) => v.name === stateMount?.name);
    expect(byName('PersistentVolumeClaim', stateVolume?.persistentVolumeClaim?.claimName ?? '')).toBeDefined();
  });

  it('names the embeddings model explicitly (the default "embeddings" is served by no real server)', () => {
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value ?? '']));
    expect(env.RAGWATCH_EMBEDDINGS_MODEL).toMatch(/\S/);
    const loaded = loadConfig({ file: join(K8S_DIR, 'ragwatch.yaml'), env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    expect(loaded.config.embeddings.model).toBe(env.RAGWATCH_EMBEDDINGS_MODEL);
    expect(loaded.config.judge.model).toBe(env.RAGWATCH_JUDGE_MODEL);
  });

  it('takes its keys from the Secret the example documents, and sets only variables ragwatch reads', () => {
    const secretName = container?.envFrom?.find((e) => e.secretRef)?.secretRef?.name;
    const [secret] = readObjects(join(K8S_DIR, 'secret.example.yaml')) as (K8sObject & {
      stringData: Record<string, string>;
    })[];
    expect(secret?.metadata.name).toBe(secretName);
    for (const key of Object.keys(secret!.stringData)) expect(KNOWN_ENV, key).toContain(key);
    for (const e of container?.env ?? []) expect(KNOWN_ENV, e.name).toContain(e.name);
    // Keys are secrets: they come from the Secret, never as plain values in the Deployment.
    const plain = (container?.env ?? []).map((e) => e.name);
    for (const secretKey of ['LANGFUSE_PUBLIC_KEY', 'LANGFUSE_SECRET_KEY', 'RAGWATCH_JUDGE_API_KEY'])
      expect(plain).not.toContain(secretKey);
  });

  it('runs as the image’s unprivileged user, without privilege escalation', () => {
    const { stages } = parseDockerfile(readText(DOCKERFILE));
    const runtime = stages[stages.length - 1]!;
    const user = runtime.instructions.filter((i) => i.keyword === 'USER').pop()?.body ?? '';
    const [uid, gid] = user.split(':').map(Number);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(uid);
    expect(pod.securityContext.fsGroup).toBe(gid);
    expect(container?.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container?.securityContext?.readOnlyRootFilesystem).toBe(true);
    // The container listens where the image says it does.
    const exposed = runtime.instructions.find((i) => i.keyword === 'EXPOSE')?.body;
    expect(container?.ports?.map((p) => String(p.containerPort))).toContain(exposed);
    expect(commandArgv(runtime.instructions.find((i) => i.keyword === 'CMD')!.body)).toContain('run');
    expect(pod.serviceAccountName && byName('ServiceAccount', pod.serviceAccountName as string)).toBeTruthy();
  });
});

describe('the Service, ServiceMonitor and PrometheusRule (example overlay)', () => {
  it('route /metrics from the pod to Prometheus', () => {
    const deployment = inOverlay('Deployment') as K8sObject & {
      spec: { template: { metadata: { labels: Record<string, string> } } };
    };
    const service = inOverlay('Service') as K8sObject & {
      spec: { selector: Record<string, string>; ports: { name: string; targetPort: string | number }[] };
    };
    const monitor = inOverlay('ServiceMonitor') as K8sObject & {
      spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path?: string }[] };
    };
    const podLabels = deployment.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(service.spec.selector)) expect(podLabels[k], `pod label ${k}`).toBe(v);
    const containerPorts = (podContainers(deployment)[0] as unknown as Container).ports ?? [];
    for (const p of service.spec.ports) {
      expect(
        containerPorts.some((cp) => cp.name === p.targetPort || cp.containerPort === p.targetPort),
        `targetPort ${p.targetPort}`,
      ).toBe(true);
    }
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels))
      expect(service.metadata.labels?.[k], `service label ${k}`).toBe(v);
    expect(monitor.spec.endpoints.map((e) => e.port)).toEqual(
      expect.arrayContaining(service.spec.ports.map((p) => p.name)),
    );
    expect(monitor.spec.endpoints.every((e) => (e.path ?? '/metrics') === '/metrics')).toBe(true);
  });

  it('carries exactly the rules of deploy/prometheus/alerts.yaml', () => {
    const rule = inOverlay('PrometheusRule') as K8sObject & { spec: RuleFile };
    expect(rule.spec.groups).toEqual(readYaml<RuleFile>(ALERTS_FILE).groups);
  });
});

describe('the example overlay', () => {
  it('adds the Prometheus Operator component to the base, every object valid and in the namespace', async () => {
    expect(overlay.map((o) => o.kind).sort()).toEqual(
      [...rendered.map((o) => o.kind), 'PrometheusRule', 'ServiceMonitor'].sort(),
    );
    for (const o of overlay) {
      expect(await schemaProblems(o), `${o.kind}/${o.metadata.name}`).toEqual([]);
      expect(o.metadata.namespace, `${o.kind} namespace`).toBe(readKustomization(EXAMPLE_OVERLAY_DIR).namespace);
      expect(o.metadata.labels?.['app.kubernetes.io/part-of']).toBe('ragwatch');
    }
    for (const kind of ['ServiceMonitor', 'PrometheusRule'])
      expect(inOverlay(kind).metadata.labels?.release).toBe('kube-prometheus-stack');
  });

  it('patches the environment by name: every variable of the base is kept, in order, only the values change', () => {
    const base = envOf(one('Deployment'));
    const patched = envOf(inOverlay('Deployment'));
    expect(patched.map(([name]) => name)).toEqual(base.map(([name]) => name));
    const changed = Object.fromEntries(
      patched.filter(([name, value], i) => value !== base[i]![1]).map(([name, value]) => [name, value]),
    );
    expect(changed).toEqual({
      LANGFUSE_BASE_URL: 'http://langfuse-web.langfuse.svc:3000',
      RAGWATCH_JUDGE_BASE_URL: 'http://vllm.vllm.svc:8000/v1',
      RAGWATCH_JUDGE_MODEL: 'Qwen/Qwen3-32B',
      RAGWATCH_EMBEDDINGS_MODEL: 'BAAI/bge-m3',
    });
    const text = readText(join(EXAMPLE_OVERLAY_DIR, 'kustomization.yaml'));
    expect(text, 'no JSON 6902 patch addressing a list position').not.toMatch(/path:\s*\S*\/\d+(\/|\s|$)/m);
  });

  it('is shown as it is in docs/operations.md', () => {
    const doc = readText(join(REPO_ROOT, 'docs', 'operations.md'));
    expect(doc).toContain(`\`\`\`yaml\n${readText(join(EXAMPLE_OVERLAY_DIR, 'kustomization.yaml'))}\`\`\``);
  });

  it('the renderer refuses a positional JSON 6902 patch and merges named lists by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-overlay-'));
    try {
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        stringify({
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: [relative(dir, K8S_DIR)],
          patches: [
            {
              target: { kind: 'Deployment', name: 'ragwatch' },
              patch: '- op: replace\n  path: /spec/template/spec/containers/0/env/1/value\n  value: x\n',
            },
          ],
        }),
      );
      expect(() => renderKustomization(dir)).toThrow(/JSON 6902/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const merged = strategicMerge(
      {
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      {
        env: [
          { name: 'B', value: '3' },
          { name: 'C', value: '4' },
        ],
      },
    );
    expect(merged).toEqual({
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '3' },
        { name: 'C', value: '4' },
      ],
    });
  });
});
