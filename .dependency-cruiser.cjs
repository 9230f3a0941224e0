// The architecture, checked by the build (`npm test -- lint`): which part may import which.
// docs/architecture.md draws the same rules; change both together.
//
//   client, admin ──▶ shared-types ◀── server          wechat-sim stands alone
//   server: routes ──▶ services ──▶ repos ──▶ db/, redis/   (routes never touch SQL or Redis)
//
// Run by hand: npx depcruise server/src shared-types/src admin/src client/src wechat-sim/src
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycles, type-only ones included, hide which part depends on which: a part that ' +
        'needs something of the app declares the narrow type it uses (see jobs/recovery.ts).',
      from: {},
      to: { circular: true },
    },
    // The parts that never import each other: [name, from, to, why].
    ...[
      [
        'front-ends-never-import-server',
        '^(client|admin)/',
        '^(server|wechat-sim)/|^@showtix/(server|wechat-sim)',
        'The mini-program and the admin page talk to the server over HTTP only; shared code lives in shared-types.',
      ],
      [
        'server-never-imports-simulator',
        '^server/src/',
        '^wechat-sim/|^@showtix/wechat-sim',
        'The product server runs without the WeChat simulator (its test keys come from configuration); tests may drive it.',
      ],
      [
        'simulator-never-imports-product',
        '^wechat-sim/src/',
        '^(server|client|admin|shared-types)/|^@showtix/',
        'The simulator plays WeChat: it knows nothing of our code.',
      ],
      [
        'shared-types-import-nothing-of-ours',
        '^shared-types/src/',
        '^(server|client|admin|wechat-sim)/|^@showtix/',
        'shared-types is the leaf every part builds on.',
      ],
      [
        'catalog-below-inventory',
        '^server/src/catalog/',
        '^server/src/inventory/',
        'Inventory reads the catalog (rebuild, seat map); the catalog never reads inventory, so the ' +
          'two folders do not import each other. Only the HTTP routes serve both, and the ' +
          "organiser's session operations (catalog/sessions: opening, stopping, rebuilding a sale) sit above both.",
        'routes\\.ts$|^server/src/catalog/sessions/',
      ],
      [
        'domains-never-import-the-app',
        '^server/src/[^/]+/',
        '^server/src/(app|wiring|per-app|admin-wiring|workers|main|server)\\.ts$',
        'app.ts, wiring.ts, per-app.ts, admin-wiring.ts, workers.ts and main.ts wire the domains ' +
          'together; a domain never reaches back ' +
          '(command-line entry points such as seed/cli.ts build the app like main.ts does).',
        'cli\\.ts$',
      ],
    ].map(([name, from, to, comment, fromNot]) => ({
      name,
      severity: 'error',
      comment,
      from: fromNot ? { path: from, pathNot: fromNot } : { path: from },
      to: { path: to },
    })),
    {
      name: 'routes-never-touch-sql-or-redis',
      severity: 'error',
      comment:
        'HTTP routes parse, call a service and answer. SQL lives in repos, Redis behind ' +
        'services; a route may name the Db type of the handle it passes on (type-only).',
      from: { path: '^server/src/[a-z/-]*routes\\.ts$' },
      to: {
        path: '^server/src/(db|redis)/|(^|/)node_modules/(mysql2|ioredis)/|^(mysql2|ioredis)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'repos-never-import-upwards',
      severity: 'error',
      comment: 'A repo reads and writes rows; it never calls a service, a route or the HTTP layer.',
      from: { path: 'repo\\.ts$', pathNot: '^(client|admin|shared-types|wechat-sim)/' },
      to: { path: '(service|routes)\\.ts$|^server/src/http/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'server/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
