// The gateway's floors (docs/architecture.md, "How the folders import each other"), held by dependency-cruiser in
// `npm test`: a module imports only modules on its own floor or below, no files import each other in a circle,
// and no package imports another package's source. Tests and test helpers may import from any floor.

/** The gateway's rooms from the top floor down (the last is floor 1); rooms on one floor may import each other. */
const floors = [
  ['main.ts'],
  ['server.ts'],
  ['app.ts'],
  ['service-passthrough/'],
  ['comparison/', 'org-graph/'],
  ['graphql/'],
  ['browser/', 'events/', 'backend-record/'],
  ['config.ts'],
  ['health/', 'rbac/', 'cpr/'],
  ['database/'],
  ['legacy/'],
  ['observability/'],
  ['deprecation/', 'http/', 'usage/', 'rate-limits/'],
  ['errors/', 'auth/', 'config-error.ts', 'contract/', 'memory-flags.ts'],
];

const escapeDots = (text) => text.replace(/[.]/g, '\\.');
const room = (name) => `^gateway/src/${escapeDots(name)}${name.endsWith('/') ? '' : '$'}`;
const anyOf = (names) => `(${names.map(room).join('|')})`;
const testFiles = '\\.test\\.ts$|\\.test-helpers\\.ts$';

const upward = floors.slice(1).map((floor, index) => {
  const above = floors.slice(0, index + 1).flat();
  return {
    name: `floor-${floors.length - 1 - index}-imports-up`,
    comment: `${floor.join(', ')} may import only rooms on its floor or below, not ${above.join(', ')}.`,
    severity: 'error',
    from: { path: anyOf(floor), pathNot: testFiles },
    to: { path: anyOf(above) },
  };
});

/** A room of the gateway that no floor names: give it a floor before it imports anything. */
const unplaced = {
  name: 'room-without-a-floor',
  comment:
    'Every folder and top-level module of gateway/src has a floor in .dependency-cruiser.cjs and docs/architecture.md.',
  severity: 'error',
  from: { path: '^gateway/src/', pathNot: `${anyOf(floors.flat())}|${testFiles}` },
  to: {},
};

const packages = ['gateway', 'legacy-service', 'idp'];
const packageSource = packages.map((name) => ({
  name: `${name}-imports-another-package`,
  comment: `${name} runs against the others as servers: it must not import their source.`,
  severity: 'error',
  from: { path: `^${name}/`, pathNot: testFiles },
  to: { path: `^(${packages.filter((other) => other !== name).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    unplaced,
    ...packageSource,
    {
      name: 'no-circular',
      comment: 'Files that need each other share a small module of their own instead.',
      severity: 'error',
      from: { pathNot: testFiles },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.mesh)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
