// `npm test`: typecheck, lint, the layer check and unit tests once, then the contract, end-to-end and browser suites and
// the Playwright fixture's suite on both profiles.
// The spam check's suites need spamd on both profiles, the cluster profile Elasticsearch, MinIO and Redis too: this
// starts them with scripts/services/up (installing them the first time) and fails when they cannot start.
// SANDBOX_TEST_SKIP_CLUSTER=1 skips that profile and says so.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const failures = [];

/** Each failed stage's own report of its failures, printed again at the very end. */
const failureReports = [];

/**
 * Runs one stage, its output passed through as it comes. A failed stage's failure report (from mocha's "N failing" or
 * Playwright's first "1) " to its end; else its last lines) is kept to be printed again last: a log read from its tail
 * would otherwise end with the next stage's passing tests and not say which test failed.
 */
async function run(title, command, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const child = spawn(command, args, { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk;
  });
  const [code, signal] = await new Promise((resolve) => child.on('close', (...ended) => resolve(ended)));
  if (code === 0) return;
  failures.push(title);
  const start = output.search(/^ {2}\d+ failing|^ {2}1\) /m);
  const report = start >= 0 ? output.slice(start) : output.slice(-4000);
  // Each line quoted, so that the counts CI sums from "N passing" / "N failing" lines do not take them twice.
  failureReports.push(`--- ${title} (exit ${code ?? signal}) ---\n${report.trimEnd().replace(/^/gm, '| ')}`);
}

/** package.json's test:suites: the contract and end-to-end suites, for the profile SANDBOX_TEST_PROFILE names. */
const suites = ['run', '--silent', 'test:suites'];
/** package.json's test:playwright: the Playwright fixture's own suite (@playwright/test), for the same profile. */
const playwrightSuite = ['run', '--silent', 'test:playwright'];

/** Runs scripts/services/up for `services` (all when none) and returns the SANDBOX_* variables it prints, or null. */
function servicesUp(services) {
  const up = spawnSync(path.join(root, 'scripts/services/up'), services, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (up.status !== 0) return null;
  return Object.fromEntries([...up.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
}

// The server's and the dashboard's (DOM) type checks: package.json's typecheck.
await run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
await run('lint', 'npx', ['eslint', '.']);
await run('layers', 'npm', ['run', '--silent', 'lint:layers']);
await run('unit tests', 'npx', ['mocha', 'test/unit/**/*.test.ts']);
// Only spamd here: the embedded profile needs no other service, and a run that skips the cluster profile should not
// install Elasticsearch and MinIO (minutes) for it.
console.log('\n=== starting spamd for the spam check (scripts/services/up spamd) ===');
const spamd = servicesUp(['spamd']);
if (spamd === null) {
  console.error('\nFAILED: spamd did not start (see above); the spam check\'s suites fail without it.');
  failures.push('spamd for the spam check');
}
const spamdEnv = spamd === null ? {} : { SANDBOX_SPAMD_URL: spamd.SANDBOX_SPAMD_URL };
// The browser suites (test/browser/) drive Debian's Chromium; up installs the package the first time.
console.log('\n=== installing Chromium for the browser tests when missing (scripts/services/up chromium) ===');
if (servicesUp(['chromium']) === null) {
  console.error('\nFAILED: Chromium could not be installed (see above); the browser suites fail without /usr/bin/chromium.');
  failures.push('Chromium for the browser tests');
}
const embeddedEnv = { ...spamdEnv, SANDBOX_TEST_PROFILE: 'embedded' };
await run('contract and end-to-end tests, embedded profile', 'npm', suites, embeddedEnv);
await run('Playwright fixture tests, embedded profile', 'npm', playwrightSuite, embeddedEnv);

if (process.env.SANDBOX_TEST_SKIP_CLUSTER === '1') {
  console.log('\n=== cluster profile SKIPPED (SANDBOX_TEST_SKIP_CLUSTER=1): its contract, end-to-end and Playwright suites did not run ===');
} else {
  console.log('\n=== starting Elasticsearch, MinIO and Redis (scripts/services/up; spamd runs already) ===');
  const services = servicesUp([]);
  if (services === null) {
    console.error('\nFAILED: the cluster profile\'s services did not start (see above). Set SANDBOX_TEST_SKIP_CLUSTER=1 to run the embedded profile only.');
    failures.push('services for the cluster profile');
  } else {
    const clusterEnv = { ...services, SANDBOX_TEST_PROFILE: 'cluster' };
    await run('contract and end-to-end tests, cluster profile', 'npm', suites, clusterEnv);
    await run('Playwright fixture tests, cluster profile', 'npm', playwrightSuite, clusterEnv);
  }
}

if (failures.length > 0) {
  console.error(`\n=== the failures again ===\n${failureReports.join('\n\n')}`);
  console.error(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nall test stages passed');
