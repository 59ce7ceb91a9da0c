// `npm test`: typecheck, lint, the layer check and unit tests once, then the contract, end-to-end and browser suites and
// the Playwright fixture's suite on both profiles, with stages side by side wherever they do not wait on each other:
// the services install and start while the checks run, and the two profiles' suites run together once their services
// are up, each with its files two at a time (package.json's test:suites, SANDBOX_TEST_JOBS): most of a suite's time
// is spent waiting on servers, browsers and Elasticsearch refreshes, not on the CPU; a third file at a time
// overloads two cores and makes the run slower.
// The spam check's suites need spamd on both profiles, the cluster profile Elasticsearch, MinIO and Redis too: they are
// started with scripts/services/up (installing them the first time), and the run fails when they cannot start.
// SANDBOX_TEST_SKIP_CLUSTER=1 skips that profile and says so.
// The Python client's pytest suite (clients/python/run-tests) closes each profile's suites beside the Playwright suite, in a venv that its setup stage
// makes once for both, after the services' installs (a missing python3-venv would wait on apt's lock behind them).
// Each stage's output is printed whole when it ends, so stages running together never interleave their lines; the
// stage times close the run, and every failed stage's failure report is printed again at the very end.
// SANDBOX_TEST_BUDGET_SECONDS: the run fails when it took longer than that, wall clock, so a change that makes the
// suite slower than its budget is seen the day it lands.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runStarted = performance.now();
const seconds = (since) => (performance.now() - since) / 1000;

/** Each stage's title, when it started (seconds into the run), how long it took and whether it passed. */
const stageTimes = [];
const failures = [];
/** Each failed stage's own report of its failures, printed again at the very end. */
const failureReports = [];

/**
 * Runs one command with its output (stdout and stderr) collected, then printed whole under its title. A failed stage's
 * failure report (from mocha's "N failing", Playwright's first "1) " or pytest's "= FAILURES =" or "= ERRORS =" to its
 * end; else its last lines) is kept to be printed again last: a log read from its tail would otherwise end with another
 * stage's passing tests.
 */
async function run(title, command, args, env = {}) {
  const started = performance.now();
  console.log(`--- started: ${title} (${seconds(runStarted).toFixed(0)} s into the run)`);
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  let stdout = '';
  for (const [stream, isStdout] of [[child.stdout, true], [child.stderr, false]]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      output += chunk;
      if (isStdout) stdout += chunk;
    });
  }
  const [code, signal] = await new Promise((resolve) => child.on('close', (...ended) => resolve(ended)));
  const took = seconds(started);
  stageTimes.push({ title, start: (started - runStarted) / 1000, seconds: took, passed: code === 0 });
  console.log(`\n=== ${title} (${took.toFixed(0)} s, ${code === 0 ? 'passed' : `FAILED, exit ${code ?? signal}`}) ===`);
  process.stdout.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
  if (code === 0) return { ok: true, stdout };
  failures.push(title);
  const start = output.search(/^ {2}\d+ failing|^ {2}1\) |^=+ (?:FAILURES|ERRORS) =+$/m);
  const report = start >= 0 ? output.slice(start) : output.slice(-4000);
  // Each line quoted, so that the counts CI sums from "N passing" / "N failing" lines do not take them twice.
  failureReports.push(`--- ${title} (exit ${code ?? signal}) ---\n${report.trimEnd().replace(/^/gm, '| ')}`);
  return { ok: false, stdout };
}

/** Runs scripts/services/up for `services` and returns the SANDBOX_* variables it prints, or null when it failed. */
async function servicesUp(title, services) {
  const { ok, stdout } = await run(title, path.join(root, 'scripts/services/up'), services);
  if (!ok) return null;
  return Object.fromEntries([...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
}

/**
 * The suites' servers keep their data dirs, mail files and browser profiles under TMPDIR: on a machine with a RAM disk
 * (/dev/shm), there, so that their many small synced writes cost no disk. What the kill tests prove holds on it: they
 * kill processes, and what a killed process wrote stays in the kernel's files either way.
 */
const suiteTmpdir = (() => {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return { TMPDIR: fs.mkdtempSync('/dev/shm/mail-sandbox-tests-') };
  } catch {
    return {};
  }
})();
process.on('exit', () => {
  if (suiteTmpdir.TMPDIR) fs.rmSync(suiteTmpdir.TMPDIR, { recursive: true, force: true });
});

/** package.json's test:suites: the contract, end-to-end and browser suites, for the profile SANDBOX_TEST_PROFILE names. */
const suites = ['run', '--silent', 'test:suites'];
/** package.json's test:playwright: the Playwright fixture's own suite (@playwright/test), for the same profile. */
const playwrightSuite = ['run', '--silent', 'test:playwright'];
const skipCluster = process.env.SANDBOX_TEST_SKIP_CLUSTER === '1';

/** The build the suites' servers run (dist/), made once before the suites of both profiles ask for it together. */
const build = run('build (when stale)', 'node', ['scripts/build-if-needed.mjs']);

// spamd and Chromium first (the embedded profile needs only them), then the cluster profile's services: one
// scripts/services/up at a time (it holds a lock while it installs).
const embeddedServices = servicesUp('spamd for the spam check and Chromium for the browser tests (scripts/services/up spamd chromium)', ['spamd', 'chromium']);
const clusterServices = skipCluster ? Promise.resolve(null) : embeddedServices.then(() => servicesUp(
  'Elasticsearch, MinIO and Redis for the cluster profile (scripts/services/up redis elasticsearch minio)',
  ['redis', 'elasticsearch', 'minio'],
));

// The checks: the server's and the dashboard's (DOM) type checks (package.json's typecheck) beside eslint and the
// services' installs, then the layer check and the unit tests, before any suite's servers and browsers start (a
// fresh machine may still be building MinIO meanwhile).
const checks = (async () => {
  await Promise.all([
    run('typecheck', 'npm', ['run', '--silent', 'typecheck']),
    run('lint', 'npx', ['eslint', '.']),
  ]);
  await run('layers', 'npm', ['run', '--silent', 'lint:layers']);
  await run('unit tests', 'npx', ['mocha', 'test/unit/**/*.test.ts']);
})();

/**
 * The Python client's venv, made when missing and refreshed when the package changed, and its type check (mypy): once for
 * both profiles, after every scripts/services/up, whose apt-get installs a missing python3-venv would otherwise race.
 */
const pythonClient = path.join(root, 'clients/python/run-tests');
const pythonSetup = Promise.all([embeddedServices, clusterServices]).then(() => run('Python client: venv, install and type check (clients/python/run-tests --setup)', pythonClient, ['--setup']));

/** One profile's suites, then its Playwright suite beside the Python client's, once its services are up and the build is made. */
async function profileSuites(profile, services, spamd) {
  const env = services === null ? null : { ...(spamd === null ? {} : { SANDBOX_SPAMD_URL: spamd.SANDBOX_SPAMD_URL }), ...services, ...suiteTmpdir, SANDBOX_TEST_PROFILE: profile };
  if (env === null) return;
  // After the checks: the unit tests' pools and timers are not raced by a profile's servers and browsers either.
  await Promise.all([build, checks]);
  await run(`contract, end-to-end and browser tests, ${profile} profile`, 'npm', suites, env);
  // Side by side: each starts a server of its own, and at the end of the cluster profile nothing else runs.
  await Promise.all([
    run(`Playwright fixture tests, ${profile} profile`, 'npm', playwrightSuite, env),
    // A failed setup is reported as its own stage; without a venv there is nothing to run.
    pythonSetup.then(({ ok }) => (ok ? run(`Python client tests (pytest), ${profile} profile`, pythonClient, [], env) : undefined)),
  ]);
}

const embedded = embeddedServices.then(async (spamd) => {
  if (spamd === null) {
    console.error('\nFAILED: spamd or Chromium did not start (see above); the spam check\'s and the browser suites fail without them.');
    failures.push('spamd and Chromium for the embedded profile');
  }
  // Run anyway: every other suite still says what it proves.
  await profileSuites('embedded', {}, spamd);
});
const cluster = clusterServices.then(async (services) => {
  if (skipCluster) {
    console.log('\n=== cluster profile SKIPPED (SANDBOX_TEST_SKIP_CLUSTER=1): its contract, end-to-end, Playwright and Python suites did not run ===');
    return;
  }
  if (services === null) {
    console.error('\nFAILED: the cluster profile\'s services did not start (see above). Set SANDBOX_TEST_SKIP_CLUSTER=1 to run the embedded profile only.');
    failures.push('services for the cluster profile');
    return;
  }
  await profileSuites('cluster', services, await embeddedServices);
});

await Promise.all([checks, embedded, cluster, pythonSetup]);

const total = seconds(runStarted);
console.log('\n=== stage times (seconds: start, duration) ===');
for (const stage of stageTimes.sort((a, b) => a.start - b.start)) {
  console.log(`${stage.start.toFixed(0).padStart(6)} ${stage.seconds.toFixed(0).padStart(6)}  ${stage.title}${stage.passed ? '' : '  FAILED'}`);
}
console.log(`${'total'.padStart(6)} ${total.toFixed(0).padStart(6)}  the whole run, wall clock`);
const budget = process.env.SANDBOX_TEST_BUDGET_SECONDS;
if (budget !== undefined && budget !== '') {
  if (!/^\d+$/.test(budget)) {
    failures.push(`SANDBOX_TEST_BUDGET_SECONDS must be whole seconds, got '${budget}'`);
  } else if (total > Number(budget)) {
    console.error(`\nOVER BUDGET: the run took ${total.toFixed(0)} s, its budget is ${budget} s (SANDBOX_TEST_BUDGET_SECONDS); the stage times above say where it went`);
    failures.push('the time budget');
  } else {
    console.log(`within budget: ${total.toFixed(0)} s of ${budget} s (SANDBOX_TEST_BUDGET_SECONDS)`);
  }
}

if (failures.length > 0) {
  console.error(`\n=== the failures again ===\n${failureReports.join('\n\n')}`);
  console.error(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nall test stages passed');
