// Builds what is older than its sources: the server (src/ without src/dashboard/, tsc into dist/), the client's
// declarations (src/client/tsconfig.json), the Playwright fixture's (src/playwright/tsconfig.json) and the dashboard
// (src/dashboard/, vite into dist/dashboard/). Prints nothing when all are up to date, and sends the tools' output to
// stderr so `npm run --silent admin` keeps stdout for JSON.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dashboardSources = path.join(root, 'src', 'dashboard');

function newestMtime(dir, skip = null) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === skip) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const mtimeOf = (...files) => Math.max(...files.map((file) => fs.statSync(path.join(root, file)).mtimeMs));
const builtAt = (stamp) => (fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0);

/** Runs a build step when its sources are newer than its stamp, then touches the stamp; exits on failure. */
function buildWhenStale(what, sources, stamp, args) {
  if (sources <= builtAt(stamp)) return;
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    process.stderr.write(`mail-sandbox: ${what} build failed (see the output above)\n`);
    process.exit(result.status ?? 1);
  }
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, new Date().toISOString());
}

buildWhenStale(
  'server',
  Math.max(newestMtime(path.join(root, 'src'), dashboardSources), mtimeOf('tsconfig.json', 'tsconfig.build.json', 'package.json')),
  path.join(root, 'dist', '.build-stamp'),
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
);
// The client's declarations (package.json "exports"), from its own sources and the contract they name.
buildWhenStale(
  'client declarations',
  Math.max(newestMtime(path.join(root, 'src', 'client')), newestMtime(path.join(root, 'src', 'contract')), mtimeOf('tsconfig.json', 'package.json')),
  path.join(root, 'dist', '.client-types-stamp'),
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'src', 'client', 'tsconfig.json')],
);
// The Playwright fixture's declarations (package.json "exports"), from its sources and the client's it names.
buildWhenStale(
  'Playwright fixture declarations',
  Math.max(newestMtime(path.join(root, 'src', 'playwright')), newestMtime(path.join(root, 'src', 'client')), newestMtime(path.join(root, 'src', 'contract')),
    mtimeOf('tsconfig.json', 'package.json')),
  path.join(root, 'dist', '.playwright-types-stamp'),
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'src', 'playwright', 'tsconfig.json')],
);
// The dashboard's stamp sits outside dist/dashboard/, which vite empties on every build.
buildWhenStale(
  'dashboard',
  // Besides its own sources the dashboard bundles the contract and the domain modules behind its door (.dependency-cruiser.js).
  Math.max(newestMtime(dashboardSources), newestMtime(path.join(root, 'src', 'contract')),
    mtimeOf('vite.config.ts', 'package.json', 'src/domain/roles.ts', 'src/domain/chaos.ts')),
  path.join(root, 'dist', '.dashboard-build-stamp'),
  [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(root, 'vite.config.ts')],
);
buildWhenStale(
  'contracts as JSON',
  Math.max(mtimeOf('openapi.yaml', 'mailpit-api.yaml', 'package.json'), fs.statSync(path.join(root, 'scripts', 'contracts-json.mjs')).mtimeMs),
  path.join(root, 'dist', '.contracts-json-stamp'),
  [path.join(root, 'scripts', 'contracts-json.mjs')],
);
