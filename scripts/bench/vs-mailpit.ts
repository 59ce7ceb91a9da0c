// Compares this service with Mailpit v1.33.1 side by side on this machine: capture rate, latency and memory over plain SMTP + AUTH PLAIN, then search latency per query shape on the same corpus; run `npm run bench:vs-mailpit -- [--messages 2000] [--rounds 2] [--clients 4,16,64] [--search-sizes 20000,100000] [--search-runs 20] [--phase capture|search|all]`.
// Mailpit is built once with `go install` (scripts/support/mailpit.ts). Our server is the built
// dist (embedded profile; SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startServer, type StartedServer } from '../../test/support/server.js';
import { loadAverage, percentile, positiveInt, processCpuMs, round, rssKb, sampleRss } from './measure.js';
import { ensureMailpit, MAILPIT_VERSION, startMailpit, type Mailpit } from '../support/mailpit.js';
import { buildBenchMessage, driveSmtpLoad, MESSAGE_BYTES, summarizeLoad, type LoadRun, type OutgoingMessage, type SmtpTarget } from './smtp-load.js';
import { removeScratchData } from '../../test/support/scratch-data.js';

const PHASES = ['capture', 'search', 'all'] as const;
/** Clients loading the search corpus into each server. */
const LOAD_CLIENTS = 16;
const PAGE_LIMIT = 50;
const WARMUP_RUNS = 2;
/** Messages each server captures before the measured capture rounds. */
const WARMUP_MESSAGES = 500;
const progress = (line: string) => process.stderr.write(`[bench:vs-mailpit] ${line}\n`);

// ---------- the two contenders behind one shape ----------

interface Contender {
  name: 'ours' | 'mailpit';
  pid: number;
  smtp: SmtpTarget;
  /** Messages stored so far (in the current inbox, for ours). */
  count(): Promise<number>;
  /** One search for `query` in this contender's syntax: the matches it reports, and the page it returned. */
  search(query: string): Promise<{ page: number; more: boolean; total: number | null }>;
}

async function getJson<T>(url: string, key: string | null, init: RequestInit = {}): Promise<{ status: number; json: T }> {
  const response = await fetch(url, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const text = await response.text();
  return { status: response.status, json: (text.startsWith('{') ? JSON.parse(text) : text) as T };
}

async function ourInbox(server: StartedServer, key: string, name: string): Promise<{ id: string; smtp: { username: string; password: string } }> {
  const created = await getJson<{ data: { id: string; smtp: { username: string; password: string } } }>(`${server.httpUrl}/v1/inboxes`, key, { method: 'POST', body: JSON.stringify({ name }) });
  if (created.status !== 201) throw new Error(`creating inbox ${name} answered ${created.status}: ${JSON.stringify(created.json)}`);
  return created.json.data;
}

function ours(server: StartedServer, key: string, inbox: { id: string; smtp: { username: string; password: string } }): Contender {
  return {
    name: 'ours',
    pid: server.process.pid!,
    smtp: { port: server.smtpPort, username: inbox.smtp.username, password: inbox.smtp.password, plain: true },
    async count() {
      const got = await getJson<{ data: { message_count: number } }>(`${server.httpUrl}/v1/inboxes/${inbox.id}`, key);
      if (got.status !== 200) throw new Error(`reading the inbox answered ${got.status}`);
      return got.json.data.message_count;
    },
    async search(q) {
      const got = await getJson<{ data: unknown[]; next_cursor?: string }>(`${server.httpUrl}/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent(q)}&limit=${PAGE_LIMIT}`, key);
      if (got.status !== 200) throw new Error(`ours: q=${q} answered ${got.status}: ${JSON.stringify(got.json).slice(0, 300)}`);
      // A page and a cursor, no total: that is all the list answers, and all a client needs.
      return { page: got.json.data.length, more: got.json.next_cursor !== undefined, total: null };
    },
  };
}

function mailpitContender(mailpit: Mailpit): Contender {
  return {
    name: 'mailpit',
    pid: mailpit.process.pid!,
    // Mailpit accepts any login (--smtp-auth-accept-any); AUTH PLAIN is still sent, as to ours.
    smtp: { port: mailpit.smtpPort, username: 'bench', password: 'bench', plain: true },
    async count() {
      const got = await getJson<{ total: number }>(`${mailpit.httpUrl}/api/v1/messages?limit=0`, null);
      if (got.status !== 200) throw new Error(`Mailpit's message list answered ${got.status}`);
      return got.json.total;
    },
    async search(query) {
      const got = await getJson<{ messages: unknown[]; messages_count: number }>(`${mailpit.httpUrl}/api/v1/search?query=${encodeURIComponent(query)}&limit=${PAGE_LIMIT}`, null);
      if (got.status !== 200) throw new Error(`Mailpit: query=${query} answered ${got.status}: ${JSON.stringify(got.json).slice(0, 300)}`);
      return { page: got.json.messages.length, more: got.json.messages_count > got.json.messages.length, total: got.json.messages_count };
    },
  };
}

// ---------- capture ----------

/** One contender's rounds at one client count, pooled. */
class CaptureTally {
  readonly rounds: { messages_per_second: number; p50_ms: number; p99_ms: number; rss_peak_mb: number; server_cpu_ms_per_message: number }[] = [];
  private messages = 0;
  private seconds = 0;
  private serverCpuMs = 0;
  private clientCpuMs = 0;
  private latencies: number[] = [];
  private rssPeakKb = 0;

  add({ run, rssPeakKb, serverCpuMs, clientCpuMs }: TimedLoad): void {
    const summary = summarizeLoad(run);
    this.rounds.push({ messages_per_second: summary.messages_per_second, p50_ms: summary.latency_ms.p50, p99_ms: summary.latency_ms.p99, rss_peak_mb: round(rssPeakKb / 1024, 1), server_cpu_ms_per_message: round(serverCpuMs / run.messages, 3) });
    this.messages += run.messages;
    this.seconds += run.seconds;
    this.serverCpuMs += serverCpuMs;
    this.clientCpuMs += clientCpuMs;
    this.latencies = this.latencies.concat(run.latencies);
    this.rssPeakKb = Math.max(this.rssPeakKb, rssPeakKb);
  }

  get rate(): number {
    return this.messages / this.seconds;
  }

  summary() {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      messages_per_second: round(this.rate, 1),
      latency_ms: { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) },
      server_rss_peak_mb: round(this.rssPeakKb / 1024, 1),
      // CPU per message, all threads, of the server and of this bench's SMTP clients: on a small machine the two
      // share the cores, so a server's rate depends on how much CPU it leaves the clients.
      server_cpu_ms_per_message: round(this.serverCpuMs / this.messages, 3),
      client_cpu_ms_per_message: round(this.clientCpuMs / this.messages, 3),
      rounds: this.rounds,
    };
  }
}

interface TimedLoad {
  run: LoadRun;
  rssPeakKb: number;
  serverCpuMs: number;
  clientCpuMs: number;
}

async function timedLoad(contender: Contender, count: number, messageAt: (index: number) => OutgoingMessage, clients: number): Promise<TimedLoad> {
  const rss = sampleRss(contender.pid);
  const serverCpuBefore = processCpuMs(contender.pid);
  const clientCpuBefore = processCpuMs(process.pid);
  let run: LoadRun;
  let rssPeakKb: number;
  try {
    run = await driveSmtpLoad(contender.smtp, count, messageAt, clients);
  } finally {
    rssPeakKb = rss.stop();
  }
  return { run, rssPeakKb, serverCpuMs: processCpuMs(contender.pid) - serverCpuBefore, clientCpuMs: processCpuMs(process.pid) - clientCpuBefore };
}

async function capturePhase(contenders: [Contender, Contender], messages: number, rounds: number, clientCounts: number[]) {
  // Built up front so message construction is not part of the measured time; every round sends the same set.
  const raws = Array.from({ length: messages }, (_, index) => buildBenchMessage(index));
  // An unmeasured first pass on each side: ours would otherwise pay its JIT and worker start-up inside round one.
  const warmup = Math.min(messages, WARMUP_MESSAGES);
  for (const contender of contenders) await driveSmtpLoad(contender.smtp, warmup, (index) => raws[index]!, clientCounts[0]!);
  const results = [];
  let sent = warmup;
  for (const clients of clientCounts) {
    const tallies = new Map(contenders.map((contender) => [contender.name, new CaptureTally()]));
    for (let pass = 0; pass < rounds; pass++) {
      // Alternating who goes first, so neither always meets the machine warmer or its own data larger.
      for (const contender of pass % 2 === 0 ? contenders : [...contenders].reverse()) {
        const load = await timedLoad(contender, messages, (index) => raws[index]!, clients);
        tallies.get(contender.name)!.add(load);
        const { run } = load;
        progress(`capture ${clients} clients, round ${pass + 1}: ${contender.name} ${(messages / run.seconds).toFixed(0)} msg/s`);
      }
      sent += messages;
    }
    const ourTally = tallies.get('ours')!;
    const theirTally = tallies.get('mailpit')!;
    results.push({ clients, ours: ourTally.summary(), mailpit: theirTally.summary(), ratio_ours_over_mailpit: round(ourTally.rate / theirTally.rate, 2) });
  }
  // Every 250 must stand for a stored message on both sides, or the rates compare different work.
  for (const contender of contenders) {
    const stored = await contender.count();
    if (stored !== sent) throw new Error(`${contender.name} holds ${stored} messages after capture, expected ${sent}`);
  }
  return results;
}

// ---------- search ----------

/**
 * The corpus: message i is fully determined by i, and each query shape below matches a known share of it, so both
 * servers must report the same matches. Bodies are ~2 KB of words from VOCABULARY, which holds none of the needles.
 */
const VOCABULARY = `the team account please confirm your address order update report week project status meeting notes payment
  review details support today change settings message thanks regards schedule document file summary monthly server
  build release version feature ticket resolved pending approved customer data number total amount date invoice
  receipt security access request profile service contact question agenda budget forecast planning draft final`
  .split(/\s+/)
  .filter((word) => word !== '');
const RARE_WORD = 'quillwort';
const COMMON_WORD = 'delivery';
const PHRASE = 'please confirm your shipping address';
const ABSENT_WORD = 'zanzibarquartz';
const BODY_LINES = 30;
const WORDS_PER_LINE = 10;
const CORPUS_START = Date.UTC(2026, 0, 5);

const senderOf = (i: number) => String(i % 100).padStart(3, '0');
const recipientOf = (i: number) => String(i % 500).padStart(4, '0');
const isRare = (i: number) => i % 1000 === 500;
const isCommon = (i: number) => i % 3 === 0;
const isWeekly = (i: number) => i % 10 === 0;
const hasPhrase = (i: number) => i % 100 === 7;
const OTHER_SUBJECTS = ['Order {i} confirmation', 'Your invoice {i}', 'Welcome aboard, member {i}', 'Password reset request {i}'];

/** A word of the filler, chosen by a multiplicative hash of (message, position) so the text varies but every run builds the same. */
const fillerWord = (i: number, position: number) => VOCABULARY[((Math.imul(i + 1, 2654435761) ^ Math.imul(position + 1, 40503)) >>> 0) % VOCABULARY.length]!;

function corpusMessage(i: number): OutgoingMessage {
  const from = `sender-${senderOf(i)}@senders.example.test`;
  const to = `user-${recipientOf(i)}@users.example.test`;
  const subject = isWeekly(i) ? `Weekly report ${i}` : OTHER_SUBJECTS[i % OTHER_SUBJECTS.length]!.replace('{i}', String(i));
  const lines: string[] = [];
  for (let line = 0; line < BODY_LINES; line++) {
    const words = Array.from({ length: WORDS_PER_LINE }, (_, k) => fillerWord(i, line * WORDS_PER_LINE + k));
    lines.push(words.join(' '));
  }
  // The needles go on lines of their own, so no line wrap can split a phrase.
  if (isRare(i)) lines[4] = `Field note: a ${RARE_WORD} was seen near the depot.`;
  if (hasPhrase(i)) lines[11] = `${PHRASE.charAt(0).toUpperCase()}${PHRASE.slice(1)} before we dispatch the parcel.`;
  if (isCommon(i)) lines[19] = `Expected ${COMMON_WORD} window: ${1 + (i % 5)} working days.`;
  const raw = [
    `From: "Sender ${i % 100}" <${from}>`,
    `To: <${to}>`,
    `Subject: ${subject}`,
    `Message-ID: <corpus-${i}@vs-mailpit.bench.example.test>`,
    `Date: ${new Date(CORPUS_START + i * 1000).toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    ...lines,
    '',
  ].join('\r\n');
  return { envelope: { from, to: [to] }, raw };
}

interface QueryShape {
  shape: string;
  /** Ours (q) and Mailpit's (query) spelling of the same question. */
  ours: string;
  mailpit: string;
  matches: (i: number) => boolean;
}

const QUERY_SHAPES: QueryShape[] = [
  { shape: 'rare word (1 in 1,000)', ours: RARE_WORD, mailpit: RARE_WORD, matches: isRare },
  { shape: 'common word (1 in 3)', ours: COMMON_WORD, mailpit: COMMON_WORD, matches: isCommon },
  { shape: 'subject phrase (1 in 10)', ours: 'subject:"weekly report"', mailpit: 'subject:"weekly report"', matches: isWeekly },
  { shape: 'from (1 in 100)', ours: 'from:sender-042@', mailpit: 'from:sender-042@', matches: (i) => i % 100 === 42 },
  { shape: 'to (1 in 500)', ours: 'to:user-0123@', mailpit: 'to:user-0123@', matches: (i) => i % 500 === 123 },
  { shape: 'phrase (1 in 100)', ours: `"${PHRASE}"`, mailpit: `"${PHRASE}"`, matches: hasPhrase },
  {
    shape: 'from + subject + word (1 in 300)',
    ours: `from:sender-040@ subject:"weekly report" ${COMMON_WORD}`,
    mailpit: `from:sender-040@ subject:"weekly report" ${COMMON_WORD}`,
    matches: (i) => i % 100 === 40 && isWeekly(i) && isCommon(i),
  },
  { shape: 'no match', ours: ABSENT_WORD, mailpit: ABSENT_WORD, matches: () => false },
];

function expectedMatches(shape: QueryShape, size: number): number {
  let count = 0;
  for (let i = 0; i < size; i++) if (shape.matches(i)) count++;
  return count;
}

async function timeQuery(contender: Contender, query: string, expected: number, runs: number) {
  const first = await contender.search(query);
  // Checked once, outside the timed runs: a fast wrong answer would make the comparison meaningless.
  const right = first.total === null ? first.page === Math.min(expected, PAGE_LIMIT) && first.more === expected > PAGE_LIMIT : first.total === expected;
  if (!right) throw new Error(`${contender.name}: ${query} answered ${JSON.stringify(first)}, expected ${expected} matches`);
  for (let i = 1; i < WARMUP_RUNS; i++) await contender.search(query);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await contender.search(query);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)) };
}

/** Past SANDBOX_THREAD_IDLE_MS's default (60 s), after which an idle server's worker threads have stopped. */
const IDLE_SETTLE_MS = 65_000;

async function searchPhase(contenders: [Contender, Contender], sizes: number[], runs: number) {
  const results = [];
  let loaded = 0;
  for (const size of sizes) {
    const load: Record<string, { messages_per_second: number; server_rss_peak_mb: number }> = {};
    for (const contender of contenders) {
      const from = loaded;
      progress(`loading messages ${from}..${size - 1} into ${contender.name} (${LOAD_CLIENTS} clients)`);
      const { run, rssPeakKb } = await timedLoad(contender, size - from, (index) => corpusMessage(from + index), LOAD_CLIENTS);
      load[contender.name] = { messages_per_second: round(run.messages / run.seconds, 1), server_rss_peak_mb: round(rssPeakKb / 1024, 1) };
      const stored = await contender.count();
      if (stored !== size) throw new Error(`${contender.name} holds ${stored} corpus messages, expected ${size}`);
    }
    loaded = size;
    const queries = [];
    for (const shape of QUERY_SHAPES) {
      const expected = expectedMatches(shape, size);
      const ourTimes = await timeQuery(contenders[0], shape.ours, expected, runs);
      const theirTimes = await timeQuery(contenders[1], shape.mailpit, expected, runs);
      const ratio = (theirs: number, mine: number) => round(theirs / Math.max(mine, 0.01), 1);
      queries.push({
        shape: shape.shape,
        q: shape.ours,
        mailpit_query: shape.mailpit,
        matches: expected,
        ours: ourTimes,
        mailpit: theirTimes,
        ratio_mailpit_over_ours: { p50: ratio(theirTimes.p50_ms, ourTimes.p50_ms), p95: ratio(theirTimes.p95_ms, ourTimes.p95_ms) },
      });
      progress(`search ${size}: ${shape.shape}: ours p50 ${ourTimes.p50_ms} ms, Mailpit p50 ${theirTimes.p50_ms} ms`);
    }
    // What each server keeps resident while it holds this many messages: right after answering searches over them,
    // and once idle past the time our worker threads stop (SANDBOX_THREAD_IDLE_MS's default).
    const holding: Record<string, { server_rss_mb_after_searches: number; server_rss_mb_idle: number }> = {};
    const afterSearches = new Map(contenders.map((contender) => [contender.name, round(rssKb(contender.pid) / 1024, 1)]));
    await sleep(IDLE_SETTLE_MS);
    for (const contender of contenders) holding[contender.name] = { server_rss_mb_after_searches: afterSearches.get(contender.name)!, server_rss_mb_idle: round(rssKb(contender.pid) / 1024, 1) };
    progress(`holding ${size}: RSS after searches / idle ${contenders.map((c) => `${c.name} ${holding[c.name]!.server_rss_mb_after_searches} / ${holding[c.name]!.server_rss_mb_idle} MB`).join(', ')}`);
    results.push({ messages: size, load, holding, queries });
  }
  return results;
}

// ---------- main ----------

function positiveList(name: string, raw: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) throw new Error(`${name} must be a comma-separated list of whole numbers >= 1, got '${raw}'`);
  return parts.map((part) => positiveInt(name, part, 1));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string' },
      rounds: { type: 'string' },
      clients: { type: 'string' },
      'search-sizes': { type: 'string' },
      'search-runs': { type: 'string' },
      phase: { type: 'string' },
    },
  });
  const messages = positiveInt('--messages', values.messages, 2000);
  const rounds = positiveInt('--rounds', values.rounds, 2);
  const clientCounts = positiveList('--clients', values.clients ?? '4,16,64');
  const searchSizes = positiveList('--search-sizes', values['search-sizes'] ?? '20000,100000').sort((a, b) => a - b);
  const searchRuns = positiveInt('--search-runs', values['search-runs'], 20);
  const phase = values.phase ?? 'all';
  if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`--phase must be one of ${PHASES.join(', ')}, got '${phase}'`);

  const loadAtStart = loadAverage();
  // Mailpit accepts any login, so both servers are sent the same AUTH PLAIN exchange.
  const mailpit = await startMailpit(ensureMailpit(progress), ['--smtp-auth-accept-any', '--smtp-auth-allow-insecure']);
  let server: StartedServer | null = null;
  try {
    server = await startServer();
    if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
    const key = server.defaultKey;
    const theirs = mailpitContender(mailpit);

    let capture = null;
    if (phase !== 'search') {
      const inbox = await ourInbox(server, key, 'vs-mailpit-capture');
      capture = await capturePhase([ours(server, key, inbox), theirs], messages, rounds, clientCounts);
      // The search corpus starts from empty on both sides.
      const emptied = await getJson(`${mailpit.httpUrl}/api/v1/messages`, null, { method: 'DELETE' });
      if (emptied.status !== 200) throw new Error(`emptying Mailpit answered ${emptied.status}`);
      const deleted = await getJson(`${server.httpUrl}/v1/inboxes/${inbox.id}`, key, { method: 'DELETE' });
      if (deleted.status !== 200 && deleted.status !== 204) throw new Error(`deleting the capture inbox answered ${deleted.status}`);
    }
    const search = phase === 'capture' ? null : await searchPhase([ours(server, key, await ourInbox(server, key, 'vs-mailpit-search')), theirs], searchSizes, searchRuns);

    const listening = server.logs.find((entry) => typeof entry.http_port === 'number');
    const result = {
      bench: 'vs-mailpit',
      profile: String(listening?.profile ?? 'unknown'),
      mailpit: MAILPIT_VERSION,
      smtp: 'plain SMTP, AUTH PLAIN, one kept connection per client, both servers',
      capture: capture && { messages_per_round: messages, message_bytes: MESSAGE_BYTES, rounds, unmeasured_warmup_messages: Math.min(messages, WARMUP_MESSAGES), results: capture },
      search: search && { page_limit: PAGE_LIMIT, runs_per_query: searchRuns, load_clients: LOAD_CLIENTS, results: search },
      node: process.version,
      cpus: os.cpus().length,
      load_average_1m: { start: loadAtStart, end: loadAverage() },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await mailpit.stop();
    if (server) {
      await server.stop();
      await removeScratchData(server.dataDir);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`vs-mailpit bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
