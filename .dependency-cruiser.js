// The layers of src/ (ARCHITECTURE.md, "Layers, enforced by a tool"), checked by `npm run lint:layers` in npm test.
// http/, smtp/, workers/ → services/ → ingest/, query/, mime/, content/, outbound/, spamd/ → domain/ → contract/: a layer may
// use any layer below it (SMTP hands a message straight to the ingest pipeline), none above. Storage is reached only through its
// ports; main.ts, composition/ and cli/ wire it all together. The dashboard and the client stand apart, on the contract,
// and the Playwright fixture on the client.
// Storage drivers and content parsers are eslint's.

/**
 * Composition roots: they open the backend, build the services and hand them to the entry points, so they may import
 * anything. composition/ is the server's wiring, in phases (services, HTTP, SMTP, workers) that application.ts
 * composes and main.ts runs; its capture-services.ts and account-services.ts are the wiring the server and the admin
 * CLI (cli/) share.
 */
const COMPOSITION = '^src/(main\\.ts$|composition/|cli/)';
/** Ways in: HTTP requests, SMTP sessions, background jobs. */
const ENTRY_POINTS = '^src/(http|smtp|workers)/';
/**
 * What the use cases build on: the capture pipeline, the q language, MIME derivations, the content pool, requests to
 * the outside world, the spamd client.
 */
const BELOW_USE_CASES = '^src/(ingest|query|mime|content|outbound|spamd)/';
/** Modules every layer uses: at the root of src/ (configuration with its declaration and help), and the metrics catalogue each layer reports to. */
const SHARED = '^src/((errors|config|config-variables|config-help|logger|project-root|worker-file)\\.ts$|observability/)';
/** The bottom floor: the types and enum values generated from openapi.yaml, which every layer and the dashboard may use. */
const CONTRACT = '^src/contract/';
/** The web application: built for browsers by vite, apart from the server; it talks to the server only over HTTP. */
const DASHBOARD = '^src/dashboard/';
/**
 * The domain modules the dashboard may import: pure rules it shows before the server enforces them (who may change
 * whose role, which reply codes a chaos stage allows), so the two cannot disagree. Each is plain code for any runtime.
 */
const DASHBOARD_DOOR = '^src/domain/(roles|chaos)\\.ts$';
/**
 * The typed client shipped as `mail-sandbox/client` (package.json "exports"): a program of its own for tests, browsers and
 * tools, which reaches the server only over HTTP, built on the contract and openapi-fetch alone.
 */
const CLIENT = '^src/client/';
/**
 * The Playwright fixture shipped as `mail-sandbox/playwright`: a test's disposable inbox, on the client and
 * @playwright/test (an optional peer dependency), run in the users' Playwright workers.
 */
const PLAYWRIGHT = '^src/playwright/';
/**
 * The MCP server: tools for agents over the typed client, served over stdio (its own program, src/mcp/stdio.ts) and,
 * at /mcp, by the HTTP layer, whose requests it answers by calling the API back with the caller's key.
 */
const MCP = '^src/mcp/';
/** Where a module may live: the layers above, storage/ and domain/, the contract, the dashboard, the client, its Playwright fixture and the MCP server. */
const PLACED = `${COMPOSITION}|${ENTRY_POINTS}|^src/services/|${BELOW_USE_CASES}|^src/(storage|domain)/|${SHARED}|${CONTRACT}|${DASHBOARD}|${CLIENT}|${PLAYWRIGHT}|${MCP}`;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycles-between-folders',
      comment: 'Two folders that import each other are one layer split in two, and neither can be understood or changed alone. '
        + 'Checked per folder, so modules that are each free of cycles cannot hide one between their folders.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-cycles-between-modules',
      comment: 'A cycle, even of types only, hides which module is the lower one; with values it also makes load order matter.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'An import the checker cannot resolve is one no other rule here sees.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-modules-outside-the-layers',
      comment: 'A module in a folder (or at the root of src/) that no layer names escapes every rule but the cycle checks: '
        + 'a new folder is placed in a layer here first.',
      severity: 'error',
      from: { path: '^src/', pathNot: PLACED },
      to: {},
    },
    {
      name: 'no-storage-internals-outside-storage',
      comment: 'Everything else reaches storage through its ports (ports.ts; index.ts builds a backend), so an adapter or '
        + 'a helper of adapters can change without the rest of the code noticing.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/storage/' },
      to: { path: '^src/storage/', pathNot: '^src/storage/(ports|index)\\.ts$' },
    },
    {
      name: 'no-backend-factory-imports-outside-composition-roots',
      comment: 'Only a composition root opens a backend; every other module is handed the ports it needs, which keeps it '
        + 'working on either profile and in tests.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${COMPOSITION}|^src/storage/` },
      to: { path: '^src/storage/index\\.ts$' },
    },
    {
      name: 'no-adapter-imports-outside-the-backend-factory',
      comment: 'Only the backend factory (storage/index.ts) chooses an adapter for the configured profile.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/storage/(index\\.ts$|embedded/|cluster/)' },
      to: { path: '^src/storage/(embedded|cluster)/' },
    },
    {
      name: 'no-imports-between-adapters',
      comment: 'Each profile stands alone: the embedded profile never loads the cluster drivers, and the other way round. '
        + 'What both need sits in storage/ beside the ports.',
      severity: 'error',
      from: { path: '^src/storage/(embedded|cluster)/' },
      to: { path: '^src/storage/(embedded|cluster)/', pathNot: '^src/storage/$1/' },
    },
    {
      name: 'no-contract-importing-src',
      comment: 'The contract is the floor under every layer and the dashboard, generated from openapi.yaml: it imports '
        + 'nothing of src/, so anything may import it without pulling in code.',
      severity: 'error',
      from: { path: CONTRACT },
      to: { path: '^src/', pathNot: CONTRACT },
    },
    {
      name: 'no-domain-importing-beyond-errors',
      comment: 'The domain is the layer above the contract, types and pure rules every layer shares: it may use the '
        + 'contract and the error vocabulary and nothing else of src/.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: `^src/(domain/|errors\\.ts$)|${CONTRACT}` },
    },
    {
      name: 'no-imports-of-composition-roots',
      comment: 'Composition roots sit above every layer; a module that imports one depends on the whole application.',
      severity: 'error',
      from: { path: '^src/', pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: 'no-imports-between-entry-points',
      comment: 'HTTP, SMTP and the background jobs are independent ways in; what two of them share belongs in services/ or below.',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: { path: ENTRY_POINTS, pathNot: '^src/$1/' },
    },
    {
      name: 'no-services-importing-entry-points',
      comment: 'Use cases serve HTTP, SMTP, the background jobs and the CLI alike, so they know none of them; what they need '
        + 'from one (the API\'s JSON for webhook payloads) is handed to them by a composition root.',
      severity: 'error',
      from: { path: '^src/services/' },
      to: { path: ENTRY_POINTS },
    },
    {
      name: 'no-upward-imports-below-services',
      comment: 'ingest/, query/, mime/, content/ and outbound/ are what the use cases build on. When one needs a little of a '
        + 'service it names those methods as an interface the service satisfies (ingest-message.ts does).',
      severity: 'error',
      from: { path: BELOW_USE_CASES },
      to: { path: `^src/services/|${ENTRY_POINTS}` },
    },
    {
      name: 'no-mime-or-query-importing-beyond-domain',
      comment: 'MIME derivations and the q language are pure: they know no storage, pool or pipeline. A query compiler '
        + 'needs its backend\'s types, so it lives beside its adapter (storage/embedded/compile-sql.ts, storage/cluster/compile-es.ts).',
      severity: 'error',
      from: { path: '^src/(mime|query)/' },
      to: { path: '^src/', pathNot: '^src/($1|domain|contract)/|^src/errors\\.ts$' },
    },
    {
      name: 'no-storage-importing-its-users',
      comment: 'Adapters implement the ports in the terms of the domain and the q language, opened with the configuration; '
        + 'importing any layer that uses storage would make storage depend on its own callers.',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/', pathNot: '^src/(storage|domain|query|contract)/|^src/(errors|config|project-root|worker-file)\\.ts$' },
    },
    {
      name: 'no-shared-modules-importing-layers',
      comment: 'Errors, configuration, logging, paths and the metrics catalogue serve every layer, so they may use only the '
        + 'domain and each other; the folder rule above cannot see cycles through them.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/', pathNot: `^src/domain/|${SHARED}|${CONTRACT}` },
    },
    {
      name: 'no-server-code-in-the-dashboard',
      comment: 'The dashboard runs in a browser and reaches the server only through the API: of the server\'s sources it may '
        + 'use only the contract and the domain modules behind its door.',
      severity: 'error',
      from: { path: DASHBOARD },
      to: { path: '^src/', pathNot: `${DASHBOARD}|${CONTRACT}|${DASHBOARD_DOOR}` },
    },
    {
      name: 'no-node-behind-the-dashboard-door',
      comment: 'The domain modules the dashboard imports run in a browser too: no Node module, and of src/ only the '
        + 'contract, each other, and types (which vanish from the bundle).',
      severity: 'error',
      from: { path: DASHBOARD_DOOR },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'local'],
        dependencyTypesNot: ['type-only'],
        pathNot: `${CONTRACT}|${DASHBOARD_DOOR}`,
      },
    },
    {
      name: 'no-imports-of-the-dashboard',
      comment: 'The dashboard is a separate program for browsers (served as built files); nothing of the server imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: DASHBOARD },
      to: { path: DASHBOARD },
    },
    {
      name: 'no-server-code-in-the-client',
      comment: 'The client runs wherever its users\' tests do and talks to the server over HTTP: of src/ it may use only the '
        + 'contract (its wire types).',
      severity: 'error',
      from: { path: CLIENT },
      to: { path: '^src/', pathNot: `${CLIENT}|${CONTRACT}` },
    },
    {
      name: 'no-dependencies-of-the-client-but-openapi-fetch',
      comment: 'The client runs in Node and in browsers and its users install it with one dependency: no Node module, and of '
        + 'npm only openapi-fetch (Web Crypto, fetch streams and TextDecoder are the platform\'s).',
      severity: 'error',
      from: { path: CLIENT },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '(^|/)node_modules/openapi-fetch/',
      },
    },
    {
      name: 'no-imports-of-the-client',
      comment: 'The client is for the service\'s users (the Playwright fixture among them); the server and the dashboard have their own ways in, and a server '
        + 'module using it would call itself over HTTP. The MCP server is the one exception, on purpose: its tools act '
        + 'as an API client of the caller\'s key, so every permission and limit applies to them as over the API.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${CLIENT}|${PLAYWRIGHT}|${MCP}|^src/http/routes/mcp\\.ts$` },
      to: { path: CLIENT },
    },
    {
      name: 'no-server-code-in-the-mcp-server',
      comment: 'The MCP server reaches the service only through the typed client (and the contract\'s types); of the rest '
        + 'it reads only the project root, for the version it reports.',
      severity: 'error',
      from: { path: MCP },
      to: { path: '^src/', pathNot: `${MCP}|${CLIENT}|${CONTRACT}|^src/project-root\\.ts$` },
    },
    {
      name: 'no-imports-of-the-mcp-server-but-its-route',
      comment: 'The MCP server is served over stdio by its own program (which the package\'s command, cli/mail-sandbox.ts, '
        + 'starts) and over HTTP by its one route; nothing else uses it.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${MCP}|^src/http/routes/mcp\\.ts$|^src/cli/mail-sandbox\\.ts$` },
      to: { path: MCP },
    },
    {
      name: 'no-server-code-in-the-playwright-fixture',
      comment: 'The fixture runs in its users\' test workers and reaches the service only through the client: of src/ it may '
        + 'use only the client, not even the contract past what the client exports.',
      severity: 'error',
      from: { path: PLAYWRIGHT },
      to: { path: '^src/', pathNot: `${PLAYWRIGHT}|${CLIENT}` },
    },
    {
      name: 'no-dependencies-of-the-playwright-fixture-but-playwright',
      comment: 'Its users install the package and @playwright/test: of npm the fixture may use only that (the client brings '
        + 'openapi-fetch), and no Node module, so it needs nothing a test worker might not have.',
      severity: 'error',
      from: { path: PLAYWRIGHT },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '(^|/)node_modules/@playwright/test/',
      },
    },
    {
      name: 'no-imports-of-the-playwright-fixture',
      comment: 'The fixture is for the users\' Playwright tests; nothing of the service or the client depends on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: PLAYWRIGHT },
      to: { path: PLAYWRIGHT },
    },
  ],
  options: {
    // A layer that names another's types depends on it as much as one that calls it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Packages that map their subpaths in "exports" (@modelcontextprotocol/sdk/server/mcp.js) resolve as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
