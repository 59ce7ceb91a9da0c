// The noisy-neighbour bench (issues 23 and 35): tenant A attacks one way after another (heavy queries, tag rules, idle connections from one address or a few, signed downloads, slow webhooks, large transactions, huge JPEG and SVG thumbnails, big detail reads, MCP batches) while tenant B captures over SMTP, lists and reads its messages over HTTP, opens new connections and receives webhooks; prints per attack B's latencies and failures, B's worst API wait, B's webhook delay, the server's peak RSS and what A was answered, beside the targets (B never fails, waits under 0.5 s, RSS under 1 GB), as one JSON object; it asserts nothing. `npm run --silent bench:noisy-neighbour -- [--profile embedded|cluster] [--attacks heavy-queries,tag-rules,...] [--window-seconds 15]`.
import { fork, spawnSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { fitConnectionLimits, openFileLimit } from '../../src/services/operations/descriptor-budget.js';
import { admin, createWorkspace } from '../../test/support/admin.js';
import { ApiClient } from '../../test/support/api-client.js';
import { createInbox } from '../../test/support/inboxes.js';
import { profileEnv, testProfile } from '../../test/support/profile.js';
import { startServer, type ServerOptions, type StartedServer } from '../../test/support/server.js';
import { credentialsOf } from '../../test/support/smtp.js';
import { AnswerCounts } from './answers.js';
import { loadAverage, positiveInt, round, rssKb, sampleRss } from './measure.js';
import { ATTACK_NAMES, makeAttack, type AttackName } from './noisy-neighbour-attack-list.js';
import type { Attack, AttackOptions, Attacker } from './noisy-neighbour-attacks.js';
import type { BystanderTarget, FromBystander, ToBystander, WindowFigures } from './noisy-neighbour-bystander.js';
import { removeScratchData } from '../../test/support/scratch-data.js';

/**
 * The server's settings for the bench: loopback webhook receivers, and a size limit that admits the 20 MiB
 * transactions (their headers included); everything else is the server's default, the caps under test included.
 */
const SERVER_ENV = { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_MAX_MESSAGE_BYTES: '24m' };
/** What issue 35 asks of every attack: B never fails, B's longest API wait and the server's peak RSS stay under these. */
const TARGETS = { b_failures: 0, b_api_worst_ms_under: 500, server_peak_rss_mb_under: 1024 };
/** How long the server may take to exit on SIGTERM before it is killed: native work (an image decode) can hold it far longer. */
const STOP_GRACE_MS = 20_000;
/** Longest the bench waits for B to get going or to report; the bystander bounds its own work below it. */
const BYSTANDER_TIMEOUT_MS = 2 * 60_000;

const progress = (line: string) => process.stderr.write(`[noisy-neighbour] ${line}\n`);
const mb = (kb: number) => round(kb / 1024, 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tenant B's process: its loops run until `finish`, each sample charged to the window named last. */
async function startBystander(target: BystanderTarget) {
  const child = fork(fileURLToPath(new URL('./noisy-neighbour-bystander.ts', import.meta.url)), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = (what: string) =>
    new Promise<FromBystander>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bystander sent nothing within ${BYSTANDER_TIMEOUT_MS / 1000} s while ${what}`)), BYSTANDER_TIMEOUT_MS);
      const exited = (code: number | null) => reject(new Error(`the bystander exited (${code}) while ${what}`));
      child.once('exit', exited);
      child.once('message', (message: FromBystander) => {
        clearTimeout(timer);
        child.off('exit', exited);
        if (message.type === 'failed') reject(new Error(`the bystander failed while ${what}: ${message.error}`));
        else resolve(message);
      });
    });
  const send = (message: ToBystander) => child.send(message);
  const ready = next('starting');
  send({ type: 'start', target });
  await ready;
  return {
    window(name: string | null) {
      send({ type: 'window', name });
    },
    async finish(): Promise<Record<string, WindowFigures>> {
      const results = next('finishing');
      send({ type: 'finish' });
      const message = await results;
      if (message.type !== 'results') throw new Error(`the bystander answered ${message.type} to finish`);
      return message.windows;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/** A workspace of its own for a tenant, made with the admin CLI as an operator would. */
function tenant(server: StartedServer, name: string): Attacker {
  const created = createWorkspace(server.dataDir, name);
  return {
    httpUrl: server.httpUrl,
    api: new ApiClient(server.httpUrl, created.key.key),
    key: created.key.key,
    createReadKey: () => admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', created.workspace.id, '--access', 'read']).key,
  };
}

/** The connection caps the server runs with: as configured for it, lowered as it lowers them to fit its open-file limit. */
function connectionCapsOf(server: StartedServer, env: Record<string, string>) {
  const configured = loadConfig({ ...process.env, ...profileEnv(server.dataDir), ...env }).connections;
  return fitConnectionLimits(configured, openFileLimit(`/proc/${server.process.pid}/limits`)).limits;
}

interface WindowRun {
  seconds: number;
  /** The RSS the window started from: what earlier windows left is in every later peak. */
  server_rss_at_start_mb: number;
  server_peak_rss_mb: number;
  a_answers?: Record<string, number>;
  a_work?: Record<string, unknown>;
}

/** Per window, B's figures beside what the server and A did in it. */
function report(run: WindowRun, figures: WindowFigures | undefined) {
  return {
    seconds: run.seconds,
    b_api_worst_ms: figures?.b_api_worst_ms ?? null,
    b_failures: figures?.b_failures ?? null,
    b_api: figures?.b_api ?? null,
    b_read: figures?.b_read ?? null,
    b_new_connection: figures?.b_new_connection ?? null,
    b_smtp: figures?.b_smtp ?? null,
    b_webhook_delay_max_ms: figures?.b_webhook.delay_max_ms ?? null,
    b_webhook: figures?.b_webhook ?? null,
    server_rss_at_start_mb: run.server_rss_at_start_mb,
    server_peak_rss_mb: run.server_peak_rss_mb,
    ...(run.a_answers ? { a_answers: run.a_answers, a_work: run.a_work } : {}),
    bystander_loop_delay_max_ms: figures?.bystander_loop_delay_max_ms ?? null,
  };
}

/** Stops the server, killing it when SIGTERM has not ended it within STOP_GRACE_MS; answers how long it took and whether it was killed. */
async function stopWithin(server: StartedServer): Promise<{ seconds: number; killed: boolean }> {
  const started = performance.now();
  const exited = await Promise.race([server.stop().then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!exited) {
    progress(`the server had not exited ${STOP_GRACE_MS / 1000} s after SIGTERM: killing it`);
    await server.stop('SIGKILL');
  }
  return { seconds: round((performance.now() - started) / 1000, 1), killed: !exited };
}

/** A window's figures against the targets, one line each: B's failures, B's worst API wait, the server's peak RSS. */
function summaryOf(figures: ReturnType<typeof report>) {
  const worst = figures.b_api_worst_ms;
  return {
    b_failures: figures.b_failures,
    b_api_worst_ms: worst,
    server_peak_rss_mb: figures.server_peak_rss_mb,
    meets_targets: figures.b_failures === TARGETS.b_failures && worst !== null && worst < TARGETS.b_api_worst_ms_under && figures.server_peak_rss_mb < TARGETS.server_peak_rss_mb_under,
  };
}

/** Starts a server, sets up A and B, then measures B alone and B under each attack in turn; stops and clears the server. */
async function runOnServer(names: AttackName[], options: AttackOptions, baselineMs: number, serverOptions: ServerOptions) {
  const server = await startServer(serverOptions);
  const attacks: [AttackName, Attack][] = [];
  try {
    const pid = server.process.pid!;
    const attacker = tenant(server, 'tenant-a');
    const bystanderTenant = tenant(server, 'tenant-b');
    const ports = { smtpPort: server.smtpPort, httpPort: Number(new URL(server.httpUrl).port), caps: connectionCapsOf(server, serverOptions.env ?? {}) };
    for (const name of names) {
      progress(`preparing ${name}`);
      const attack = makeAttack(name, options, ports);
      attacks.push([name, attack]);
      await attack.prepare?.(attacker);
    }
    const bInbox = await createInbox(bystanderTenant.api, 'bystander');
    const bCredentials = credentialsOf(bInbox);
    const bystander = await startBystander({
      httpUrl: server.httpUrl,
      smtpPort: bCredentials.port,
      key: bystanderTenant.key,
      inboxId: bInbox.id,
      smtpUsername: bCredentials.username,
      smtpPassword: bCredentials.password,
    });
    const runs = new Map<string, WindowRun>();
    try {
      progress(`baseline, ${baselineMs / 1000} s with A idle`);
      const baselineStartRss = rssKb(pid);
      const baselineRss = sampleRss(pid);
      bystander.window('baseline');
      await sleep(baselineMs);
      bystander.window(null);
      runs.set('baseline', { seconds: round(baselineMs / 1000), server_rss_at_start_mb: mb(baselineStartRss), server_peak_rss_mb: mb(baselineRss.stop()) });
      for (const [name, attack] of attacks) {
        progress(`attack ${name}`);
        const answers = new AnswerCounts();
        const startRss = rssKb(pid);
        const rss = sampleRss(pid);
        const started = performance.now();
        bystander.window(name);
        const work = await attack.run(attacker, answers);
        bystander.window(null);
        runs.set(name, { seconds: round((performance.now() - started) / 1000), server_rss_at_start_mb: mb(startRss), server_peak_rss_mb: mb(rss.stop()), a_answers: answers.sorted(), a_work: work });
        progress(`${name}: A was answered ${JSON.stringify(answers.sorted())}`);
      }
      progress("waiting for B's last webhook deliveries");
      // Work an attack started may outlast its window (a native decode does): the last one's tail is measured too.
      const tailStarted = performance.now();
      const tailRss = sampleRss(pid);
      const windows = await bystander.finish();
      const afterAttacks = { seconds: round((performance.now() - tailStarted) / 1000), server_peak_rss_mb: mb(tailRss.stop()) };
      const stop = await stopWithin(server);
      return {
        profile: String(server.logs.find((entry) => typeof entry.http_port === 'number')?.profile ?? 'unknown'),
        // Warnings at start say which settings the server changed, such as connection caps lowered to fit the descriptors.
        warnings: server.logs.filter((entry) => typeof entry.level === 'number' && entry.level >= 40).map(({ level: _level, time: _time, pid: _pid, hostname: _hostname, ...rest }) => rest),
        windows: Object.fromEntries([...runs].map(([name, run]) => [name, report(run, windows[name])])),
        after_attacks: afterAttacks,
        stop,
      };
    } finally {
      bystander.kill();
    }
  } finally {
    for (const [, attack] of attacks) await attack.dispose?.();
    await stopWithin(server);
    await removeScratchData(server.dataDir);
  }
}

function selectedAttacks(raw: string | undefined): AttackName[] {
  if (raw === undefined || raw === '') return [...ATTACK_NAMES];
  const names = raw.split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(ATTACK_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown attack(s) ${unknown.join(', ')}; known: ${ATTACK_NAMES.join(', ')}`);
  return ATTACK_NAMES.filter((name) => names.includes(name));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string' },
      attacks: { type: 'string' },
      'window-seconds': { type: 'string' },
      'baseline-seconds': { type: 'string' },
      'tag-rules': { type: 'string' },
      'flood-connections': { type: 'string' },
      'flood-nofile': { type: 'string' },
    },
  });
  // The profile is chosen the way the test support chooses it, so the servers and the admin CLI agree on it.
  if (values.profile !== undefined) process.env.SANDBOX_TEST_PROFILE = values.profile;
  testProfile();
  const names = selectedAttacks(values.attacks);
  const options: AttackOptions = {
    windowMs: positiveInt('--window-seconds', values['window-seconds'], 15) * 1000,
    tagRules: positiveInt('--tag-rules', values['tag-rules'], 20),
    floodConnections: positiveInt('--flood-connections', values['flood-connections'], 3000),
  };
  const baselineMs = positiveInt('--baseline-seconds', values['baseline-seconds'], 5) * 1000;
  const floodNofile = positiveInt('--flood-nofile', values['flood-nofile'], 2048);
  const floodWrapper = ['prlimit', `--nofile=${floodNofile}:${floodNofile}`, '--'];
  if (names.includes('connection-flood') && spawnSync('prlimit', ['--version']).status !== 0) throw new Error('connection-flood needs prlimit (util-linux) to lower the server\'s descriptor limit');

  const loadAtStart = loadAverage();
  const started = performance.now();
  const shared = names.filter((name) => name !== 'connection-flood');
  const servers = [];
  if (shared.length > 0) servers.push(await runOnServer(shared, options, baselineMs, { env: SERVER_ENV }));
  let flood: Awaited<ReturnType<typeof runOnServer>> | null = null;
  if (names.includes('connection-flood')) {
    progress(`a second server, its open-file limit lowered to ${floodNofile}, for the connection flood`);
    flood = await runOnServer(['connection-flood'], options, baselineMs, { env: SERVER_ENV, wrapper: floodWrapper });
    servers.push(flood);
  }
  const first = servers[0]!;
  const baseline = shared.length > 0 ? first.windows.baseline! : flood!.windows.baseline!;
  const attacks: Record<string, ReturnType<typeof report> & { baseline_on_this_server?: ReturnType<typeof report> }> = {};
  for (const name of names) {
    attacks[name] = name === 'connection-flood' ? { ...flood!.windows[name]!, baseline_on_this_server: flood!.windows.baseline } : first.windows[name]!;
  }
  const result = {
    bench: 'noisy-neighbour',
    profile: first.profile,
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: { start: loadAtStart, end: loadAverage() },
    seconds: round((performance.now() - started) / 1000, 1),
    server_settings: {
      env: SERVER_ENV,
      ...(flood ? { connection_flood_server: { started_under: floodWrapper.join(' '), warnings: flood.warnings } } : {}),
      warnings: first.warnings,
    },
    attack_options: { window_seconds: options.windowMs / 1000, tag_rules: options.tagRules, flood_connections: options.floodConnections, baseline_seconds: baselineMs / 1000 },
    targets: TARGETS,
    // From the last window's end until B has reported (webhook stragglers), and how the server stopped.
    after_attacks: {
      ...(shared.length > 0 ? { main_server: { ...first.after_attacks, stop: first.stop } } : {}),
      ...(flood ? { connection_flood_server: { ...flood.after_attacks, stop: flood.stop } } : {}),
    },
    summary: Object.fromEntries(Object.entries({ baseline, ...attacks }).map(([name, figures]) => [name, summaryOf(figures)])),
    baseline,
    attacks,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`noisy-neighbour bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
