import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type K8sObject,
  podContainers,
  podSpec,
  podVolumes,
  renderKustomization,
  schemaProblems,
} from './support/k8s.js';
import { KNOWN_ENV, POSTGRES_OVERLAY_DIR } from './support/paths.js';
import { loadConfig } from '../../helpers/config.js';

const OVERLAY = POSTGRES_OVERLAY_DIR;
const rendered = renderKustomization(OVERLAY);
const one = (kind: string) => {
  const found = rendered.filter((o) => o.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as K8sObject & { spec: Record<string, unknown>; data?: Record<string, string> };
};
type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };

describe('deploy/k8s/overlays/postgres (several replicas on PostgreSQL state)', () => {
  const deployment = one('Deployment');
  const [container] = podContainers(deployment) as unknown as {
    env: Env[];
    volumeMounts: { name: string; mountPath: string }[];
  }[];

  it('renders objects that validate, with no volume claim for state', async () => {
    for (const o of rendered) expect(await schemaProblems(o), `${o.kind}/${o.metadata.name}`).toEqual([]);
    expect(rendered.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    for (const v of podVolumes(deployment) as Record<string, unknown>[])
      expect(v).not.toHaveProperty('persistentVolumeClaim');
  });

  it('runs several replicas, rolling one pod at a time, spread over nodes, and lets a drain evict one at a time', () => {
    const spec = deployment.spec as {
      replicas: number;
      strategy: { type: string; rollingUpdate: { maxUnavailable: number } };
    };
    expect(spec.replicas).toBeGreaterThanOrEqual(2);
    expect(spec.strategy.type).toBe('RollingUpdate');
    expect(spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    const pod = podSpec(deployment) as { topologySpreadConstraints?: { topologyKey: string }[] };
    expect(pod.topologySpreadConstraints?.[0]?.topologyKey).toBe('kubernetes.io/hostname');
    const pdb = one('PodDisruptionBudget') as K8sObject & {
      spec: { maxUnavailable: number; selector: { matchLabels: Record<string, string> } };
    };
    expect(pdb.spec.maxUnavailable).toBe(1);
    const labels = (deployment.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata
      .labels;
    for (const [k, v] of Object.entries(pdb.spec.selector.matchLabels)) expect(labels[k]).toBe(v);
  });

  it('takes the state URL from a Secret and a config without state.path that ragwatch accepts', () => {
    const url = container!.env.find((e) => e.name === 'RAGWATCH_STATE_URL');
    expect(url?.value).toBeUndefined();
    expect(url?.valueFrom?.secretKeyRef).toEqual({ name: 'ragwatch-state', key: 'RAGWATCH_STATE_URL' });
    for (const e of container!.env) expect(KNOWN_ENV, e.name).toContain(e.name);
    const file = one('ConfigMap').data!['ragwatch.yaml']!;
    expect(parse(file).state).toBeUndefined();
    const env = Object.fromEntries(
      container!.env.map((e) => [e.name, e.value ?? 'postgres://ragwatch:secret@db:5432/ragwatch']),
    );
    const loaded = loadConfig({ file: join(OVERLAY, 'ragwatch.yaml'), env });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    expect(loaded.config.state.url).toBe('postgres://ragwatch:secret@db:5432/ragwatch');
    // No per-pod volume: the reports live in PostgreSQL with the state, and every pod serves them.
    expect(container!.volumeMounts.map((m) => m.mountPath).sort()).toEqual(['/etc/ragwatch', '/tmp']);
    expect((podVolumes(deployment) as { name: string }[]).map((v) => v.name).sort()).toEqual(['config', 'tmp']);
    expect(loaded.config.experiment.reportsRetentionDays).toBeGreaterThan(0);
  });
});
