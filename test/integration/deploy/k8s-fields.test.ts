import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { type K8sObject, modelModule, readObjects, renderKustomization } from '../../unit/deploy/support/k8s.js';
import { EXAMPLE_OVERLAY_DIR, K8S_DIR, OPERATOR_COMPONENT_DIR } from '../../unit/deploy/support/paths.js';

/**
 * The JSON schemas accept unknown fields (a typo such as `livenessProbee` validates and is silently
 * dropped, or refused by a strict API server). The models' TypeScript types are generated from the same
 * OpenAPI schemas and reject them: each manifest becomes a typed object literal and tsc's excess property
 * check finds every unknown field, at any depth.
 */
const cacheDir = join(REPO_ROOT, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const work = mkdtempSync(join(cacheDir, 'ragwatch-k8s-fields-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function typedModule(objects: { label: string; object: K8sObject }[]): string {
  const imports = new Map<string, string>();
  const lines: string[] = [];
  objects.forEach(({ label, object }, i) => {
    const module = modelModule(object);
    if (!module) throw new Error(`no model for ${object.apiVersion}/${object.kind}`);
    const type = `I${object.kind}`;
    const alias = `${type}_${imports.size}`;
    if (!imports.has(module)) imports.set(module, alias);
    lines.push(`// ${label}`, `export const o${i}: ${imports.get(module)} = ${JSON.stringify(object, null, 2)};`);
  });
  const head = [...imports].map(
    ([module, alias]) => `import type { I${module.split('/').pop()} as ${alias} } from '${module}';`,
  );
  return [...head, ...lines, ''].join('\n');
}

describe('deploy/k8s fields', () => {
  it('uses only fields the Kubernetes and Prometheus Operator APIs define', () => {
    const manifests = (dir: string) =>
      readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml' && f !== 'ragwatch.yaml');
    const objects = [
      ...[K8S_DIR, OPERATOR_COMPONENT_DIR].flatMap((dir) =>
        manifests(dir).flatMap((f) => readObjects(join(dir, f)).map((object) => ({ label: f, object }))),
      ),
      ...renderKustomization(K8S_DIR).map((object) => ({ label: `rendered ${object.kind}`, object })),
      ...renderKustomization(EXAMPLE_OVERLAY_DIR).map((object) => ({
        label: `example overlay ${object.kind}`,
        object,
      })),
    ];
    writeFileSync(join(work, 'manifests.ts'), typedModule(objects));

    // A canary with a misspelt field deep in the pod spec: the check must report it.
    const canary = structuredClone(objects.find((o) => o.object.kind === 'Deployment')!.object) as K8sObject & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    canary.spec.template.spec.containers[0]!.livenessProbee = { httpGet: { path: '/healthz', port: 'http' } };
    writeFileSync(join(work, 'canary.ts'), typedModule([{ label: 'canary', object: canary }]));

    writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          types: [],
          skipLibCheck: true,
        },
        files: ['manifests.ts', 'canary.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', work, '--pretty', 'false'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    const errors = tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    const inManifests = errors.filter(
      (l) => l.startsWith('manifests.ts') || l.includes(`${relative(REPO_ROOT, work)}/manifests.ts`),
    );
    expect(inManifests, tsc.stdout).toEqual([]);
    expect(errors.filter((l) => l.includes('canary.ts')).join('\n')).toMatch(
      /livenessProbee\W* does not exist in type 'IContainer'/,
    );
    expect(errors.length, tsc.stdout + tsc.stderr).toBe(1);
  });
});
