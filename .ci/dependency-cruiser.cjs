/**
 * House rules for imports, checked by `npm run lint` (dependency-cruiser 17; 18 needs Node 22).
 * docs/architecture.md explains them. Paths are repository-relative and resolved (a rule sees the file an
 * import lands on, type-only imports included), so they hold however a specifier is spelled.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-devkit-in-production',
      comment:
        'ragwatch (src/) never imports the devkit: a production install leaves it out. `ragwatch demo` loads it ' +
        'at run time through src/commands/devkit.ts, by a specifier the import graph does not see.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^devkit/', '(^|/)node_modules/@ragwatch/devkit/', '^@ragwatch/devkit'] },
    },
    {
      name: 'folder-through-index',
      comment:
        'A top-level folder of src/ is entered through its index.ts, its public surface; inside a folder, files ' +
        'import each other directly. One exception (the next rule): the metric files use the error and client ' +
        'types of the judge alone, so loading the metric registry stays light (test/unit/module-graph.test.ts ' +
        'holds it to that).',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: ['^src/metrics/'] },
      to: {
        path: '^src/[^/]+/.+',
        pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'],
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'folder-through-index-metrics',
      comment:
        'folder-through-index for metrics/, which may also import judge/types.ts (JudgeCallError, the client ' +
        'interfaces): the judge index loads the OpenAI clients, which the registry must not.',
      severity: 'error',
      from: { path: '^src/metrics/' },
      to: {
        path: '^src/[^/]+/.+',
        pathNot: ['^src/metrics/', '^src/[^/]+/index\\.ts$', '^src/judge/types\\.ts$'],
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'lazy-part-through-index',
      comment:
        'A part of a folder loaded on demand (a dynamic import, e.g. the PostgreSQL backend) is entered through ' +
        'its own index.ts: the folder index would load it eagerly.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/.+', pathNot: ['^src/$1/', '^src/.+/index\\.ts$'], dependencyTypes: ['dynamic-import'] },
    },
    {
      name: 'folder-through-index-from-root',
      comment: 'The files at the top of src/ (cli.ts, program.ts, …) enter a folder through its index.ts too.',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/.+', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'no-import-cycles',
      comment: 'No module reaches itself through imports that run (type-only imports are erased and do not count).',
      severity: 'error',
      from: { path: '^(src|devkit/src)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['ragwatch-source', 'import', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
