/**
 * Kubernetes objects of deploy/k8s: loading, schema validation with kubernetes-models (the OpenAPI
 * schemas of Kubernetes and of the Prometheus Operator CRDs) and a kustomize rendering of the base
 * for the features it uses (resources, configMapGenerator, labels, images).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/** apiVersion/kind → module of its model (the module exports a class named after the kind). */
const MODELS: Record<string, string> = {
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'v1/Secret': 'kubernetes-models/v1/Secret',
  'v1/Service': 'kubernetes-models/v1/Service',
  'v1/ServiceAccount': 'kubernetes-models/v1/ServiceAccount',
  'v1/PersistentVolumeClaim': 'kubernetes-models/v1/PersistentVolumeClaim',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'monitoring.coreos.com/v1/ServiceMonitor': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
  'monitoring.coreos.com/v1/PrometheusRule': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
};

export const modelModule = (o: { apiVersion: string; kind: string }): string | undefined => MODELS[`${o.apiVersion}/${o.kind}`];

/** Validates against the kind's schema; resolves to the problems found (empty when valid). */
export async function schemaProblems(object: K8sObject): Promise<string[]> {
  const module = modelModule(object);
  if (!module) return [`no schema known for ${object.apiVersion}/${object.kind}`];
  const models = (await import(module)) as Record<string, ModelClass>;
  const Model = models[object.kind];
  if (!Model) return [`${module} exports no ${object.kind}`];
  try {
    new Model(structuredClone(object)).validate();
    return [];
  } catch (err) {
    return [String(err instanceof Error ? err.message : err)];
  }
}

export function readObjects(file: string): K8sObject[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
      return d.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export interface Kustomization {
  apiVersion: string;
  kind: string;
  resources?: string[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  configMapGenerator?: { name: string; files?: string[]; literals?: string[] }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  [key: string]: unknown;
}

/** The kustomization fields this renderer implements; anything else must fail the test, not be ignored. */
export const SUPPORTED_KUSTOMIZE_FIELDS = ['apiVersion', 'kind', 'resources', 'labels', 'configMapGenerator', 'images'];

export function readKustomization(dir: string): Kustomization {
  const [k] = readObjects(join(dir, 'kustomization.yaml')) as unknown as Kustomization[];
  if (!k) throw new Error(`${dir}/kustomization.yaml is empty`);
  return k;
}

/**
 * Renders the base like `kustomize build`: resources in order, generated ConfigMaps (name suffixed with
 * a content hash, references in Deployments rewritten), common labels, image overrides.
 */
export function renderKustomization(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED_KUSTOMIZE_FIELDS.includes(key));
  if (unsupported.length > 0) throw new Error(`kustomization fields not rendered by this test: ${unsupported.join(', ')}`);
  const objects: K8sObject[] = [];
  for (const resource of k.resources ?? []) {
    const file = join(dir, resource);
    if (!existsSync(file)) throw new Error(`kustomization resource missing: ${resource}`);
    objects.push(...readObjects(file));
  }
  const renamed = new Map<string, string>();
  for (const gen of k.configMapGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const f of gen.files ?? []) {
      const [key, path] = f.includes('=') ? (f.split('=', 2) as [string, string]) : [f.split('/').pop() as string, f];
      const file = join(dir, path);
      if (!existsSync(file)) throw new Error(`configMapGenerator ${gen.name}: file missing: ${path}`);
      data[key] = readFileSync(file, 'utf8');
    }
    for (const l of gen.literals ?? []) {
      const [key, value] = l.split('=', 2) as [string, string];
      data[key] = value ?? '';
    }
    const hash = createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 10);
    const name = `${gen.name}-${hash}`;
    renamed.set(gen.name, name);
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  }
  for (const o of objects) {
    for (const l of k.labels ?? []) {
      o.metadata.labels = { ...(o.metadata.labels ?? {}), ...l.pairs };
      if (l.includeSelectors) throw new Error('labels.includeSelectors is not rendered by this test');
    }
    for (const c of podContainers(o)) {
      const img = (k.images ?? []).find((i) => c.image === i.name || c.image.startsWith(`${i.name}:`));
      if (img) c.image = `${img.newName ?? img.name}${img.newTag ? `:${img.newTag}` : ''}`;
    }
    for (const v of podVolumes(o)) {
      const cm = v.configMap as { name?: string } | undefined;
      if (cm?.name && renamed.has(cm.name)) cm.name = renamed.get(cm.name);
    }
  }
  return objects;
}

type Container = { name: string; image: string; [key: string]: unknown };

export function podSpec(o: K8sObject): Record<string, unknown> | undefined {
  if (o.kind !== 'Deployment') return undefined;
  return ((o.spec as { template?: { spec?: Record<string, unknown> } }).template?.spec) ?? undefined;
}

export function podContainers(o: K8sObject): Container[] {
  return (podSpec(o)?.containers as Container[] | undefined) ?? [];
}

export function podVolumes(o: K8sObject): Record<string, unknown>[] {
  return (podSpec(o)?.volumes as Record<string, unknown>[] | undefined) ?? [];
}
