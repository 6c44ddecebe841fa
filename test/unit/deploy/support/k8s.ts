/**
 * Kubernetes objects of deploy/k8s: loading, schema validation with kubernetes-models (the OpenAPI
 * schemas of Kubernetes and of the Prometheus Operator CRDs) and a kustomize rendering of the base, its
 * component and the example overlay for the features they use (resources, components, configMapGenerator,
 * namespace, labels, images, strategic-merge patches).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
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
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'monitoring.coreos.com/v1/ServiceMonitor':
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
  'monitoring.coreos.com/v1/PrometheusRule':
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
};

export const modelModule = (o: { apiVersion: string; kind: string }): string | undefined =>
  MODELS[`${o.apiVersion}/${o.kind}`];

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

export interface KustomizePatch {
  /** An inline strategic-merge patch (a JSON 6902 list is refused: it addresses list items by position). */
  patch?: string;
  /** A file holding the patch, relative to the kustomization. */
  path?: string;
  target?: { group?: string; version?: string; kind?: string; name?: string };
}

export interface Kustomization {
  apiVersion: string;
  kind: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  configMapGenerator?: {
    name: string;
    behavior?: 'create' | 'replace' | 'merge';
    files?: string[];
    literals?: string[];
  }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: KustomizePatch[];
  [key: string]: unknown;
}

/** The kustomization fields this renderer implements; anything else must fail the test, not be ignored. */
export const SUPPORTED_KUSTOMIZE_FIELDS = [
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'components',
  'labels',
  'configMapGenerator',
  'images',
  'patches',
];

/** API groups of the Prometheus Operator's custom resources: a cluster without its CRDs rejects these kinds. */
export const OPERATOR_GROUPS = ['monitoring.coreos.com'];

export const apiGroup = (o: { apiVersion: string }) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0]! : '');

export function readKustomization(dir: string): Kustomization {
  const [k] = readObjects(join(dir, 'kustomization.yaml')) as unknown as Kustomization[];
  if (!k) throw new Error(`${dir}/kustomization.yaml is empty`);
  return k;
}

/**
 * Renders a kustomization like `kustomize build`: resources in order (files, or directories rendered as
 * kustomizations of their own), components (a `kind: Component` adds its resources and applies its
 * transformers to everything so far), generated ConfigMaps (name suffixed with a content hash, references in
 * Deployments rewritten), then the namespace, common labels, image overrides and strategic-merge patches.
 */
export function renderKustomization(dir: string): K8sObject[] {
  return render(dir, 'Kustomization', []);
}

function render(dir: string, expectedKind: 'Kustomization' | 'Component', accumulated: K8sObject[]): K8sObject[] {
  const k = readKustomization(dir);
  if (k.kind !== expectedKind) throw new Error(`${dir}: expected a ${expectedKind}, found ${k.kind}`);
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED_KUSTOMIZE_FIELDS.includes(key));
  if (unsupported.length > 0)
    throw new Error(`kustomization fields not rendered by this test: ${unsupported.join(', ')}`);
  let objects = [...accumulated];
  for (const resource of k.resources ?? []) {
    const path = join(dir, resource);
    if (!existsSync(path)) throw new Error(`kustomization resource missing: ${resource}`);
    objects.push(...(statSync(path).isDirectory() ? render(path, 'Kustomization', []) : readObjects(path)));
  }
  for (const component of k.components ?? []) {
    const path = join(dir, component);
    if (!existsSync(join(path, 'kustomization.yaml'))) throw new Error(`component missing: ${component}`);
    objects = render(path, 'Component', objects);
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
    // `behavior: replace` stands in for the base's generated ConfigMap of that name (and its volume references).
    if (gen.behavior === 'replace') {
      const old = objects.findIndex((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith(`${gen.name}-`));
      if (old < 0) throw new Error(`configMapGenerator ${gen.name}: behavior replace, but the base has none`);
      renamed.set(objects[old]!.metadata.name, name);
      objects.splice(old, 1);
    }
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  }
  for (const o of objects) {
    if (k.namespace) o.metadata.namespace = k.namespace;
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
  for (const p of k.patches ?? []) applyPatch(dir, p, objects);
  return objects;
}

function applyPatch(dir: string, p: KustomizePatch, objects: K8sObject[]): void {
  const text = p.patch ?? (p.path ? readFileSync(join(dir, p.path), 'utf8') : undefined);
  if (text === undefined) throw new Error('a patch needs `patch` or `path`');
  const body = parseAllDocuments(text)[0]?.toJS() as unknown;
  if (Array.isArray(body))
    throw new Error('JSON 6902 patches are not rendered by this test (they address list items by position)');
  const doc = body as Partial<K8sObject>;
  const target = p.target ?? {
    kind: doc.kind,
    name: doc.metadata?.name,
    group: doc.apiVersion ? apiGroup(doc as K8sObject) : undefined,
  };
  const matched = objects.filter(
    (o) =>
      (target.kind === undefined || o.kind === target.kind) &&
      (target.name === undefined || o.metadata.name === target.name) &&
      (target.group === undefined || apiGroup(o) === target.group),
  );
  if (matched.length === 0) throw new Error(`patch matches no resource: ${JSON.stringify(target)}`);
  if ((doc as { $patch?: string }).$patch === 'delete') {
    for (const o of matched) objects.splice(objects.indexOf(o), 1);
    return;
  }
  for (const o of matched) {
    const { name } = o.metadata;
    const merged = strategicMerge(o, { ...doc, apiVersion: o.apiVersion, kind: o.kind }) as K8sObject;
    Object.assign(o, merged);
    o.metadata.name = name;
  }
}

/**
 * Strategic merge as Kubernetes does it for the fields ragwatch's manifests use: maps merge key by key,
 * `null` deletes, lists of named objects (containers, env, volumes, ports) merge by `name` and volume mounts by
 * `mountPath` (their merge keys), an item `$patch: delete` removes its match; other lists are replaced.
 */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const keyOf = (v: unknown): 'name' | 'mountPath' | null => {
    if (!Array.isArray(v) || v.length === 0 || !v.every(isMap)) return null;
    if (v.every((x) => typeof x.mountPath === 'string')) return 'mountPath';
    return v.every((x) => typeof x.name === 'string') ? 'name' : null;
  };
  const mergeKey = keyOf(patch);
  if (mergeKey && (keyOf(target) === mergeKey || (Array.isArray(target) && target.length === 0))) {
    let out = (target as Array<Record<string, unknown>>).map((item) => ({ ...item }));
    for (const item of patch as Array<Record<string, unknown>>) {
      const i = out.findIndex((x) => x[mergeKey] === item[mergeKey]);
      if (item.$patch === 'delete') out = out.filter((_, j) => j !== i);
      else if (i >= 0) out[i] = strategicMerge(out[i], item) as Record<string, unknown>;
      else out.push(structuredClone(item));
    }
    return out;
  }
  if (isMap(target) && isMap(patch)) {
    const out: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = strategicMerge(out[key], value);
    }
    return out;
  }
  return structuredClone(patch);
}

type Container = { name: string; image: string; [key: string]: unknown };

export function podSpec(o: K8sObject): Record<string, unknown> | undefined {
  if (o.kind !== 'Deployment') return undefined;
  return (o.spec as { template?: { spec?: Record<string, unknown> } }).template?.spec ?? undefined;
}

export function podContainers(o: K8sObject): Container[] {
  return (podSpec(o)?.containers as Container[] | undefined) ?? [];
}

export function podVolumes(o: K8sObject): Record<string, unknown>[] {
  return (podSpec(o)?.volumes as Record<string, unknown>[] | undefined) ?? [];
}
