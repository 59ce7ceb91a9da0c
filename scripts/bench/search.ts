// Measures q search latency (p50/p95/max per query over HTTP), and Mailpit's search language beside q (through the message
// service both dialects' routes call), on one inbox of 100,000 generated messages (embedded profile; SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile); run `node scripts/build-if-needed.mjs && node --import tsx scripts/bench/search.ts` (BENCH_MESSAGES=5000 for a quick run, BENCH_KEEP_DATA=1 to keep the data dir, BENCH_DATA_DIR=<kept dir> to measure it again without loading).
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/domain/ids.js';
import { quotaPeriod } from '../../src/domain/quota-period.js';
import { searchBody, searchFields } from '../../src/domain/search-text.js';
import type { HeaderAddressKeys, MessageRecord } from '../../src/domain/types.js';
import { mailboxKeys } from '../../src/domain/mailbox-key.js';
import { InboxService } from '../../src/services/mail/inboxes.js';
import { MessageService } from '../../src/services/mail/messages.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { parseMailpitSearch } from '../../src/query/mailpit-search.js';
import type { QueryNode } from '../../src/query/ast.js';
import { WorkspaceService } from '../../src/services/accounts/workspaces.js';
import { openBackend } from '../../src/storage/index.js';
import { assertMatchesContract } from '../../test/support/api-client.js';
import { startServer, tempDataDir } from '../../test/support/server.js';
import { profileEnv, testProfile } from '../../test/support/profile.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { snippetOf } from '../../src/mime/snippet.js';
import { zipf } from './corpus.js';
import { directoryBytes, positiveInt, percentile, round } from './measure.js';

const SEED = 0x5eed_2026;
/** Messages arrive over the 30 days before this fixed instant, so every run builds the same data. */
const WINDOW_END = Date.UTC(2026, 10, 1);
const WINDOW_MS = 30 * 24 * 3600 * 1000;
const WARMUP_RUNS = 3;
const MEASURED_RUNS = 30;
const PAGE_LIMIT = 50;
/** The user id of the last (least often addressed) recipient; no other recipient id contains it. */
const RARE_USER_ID = 58213;

/** The fixed query set; the values name entries the generator below produces (the rare user id gets ~24 messages of 100,000, likely none of 5,000). */
const QUERIES = [
  'account', // common free-text word
  String(RARE_USER_ID), // rare free-text needle: the user id of the test user who gets the least mail
  '"weekly report"', // phrase
  'from:billing@acme.example', // sender
  'to:jane.doe@', // recipient
  'subject:invoice', // subject
  '-from:noreply', // negation
  'from:security@globex.example OR from:alerts@initech.example', // disjunction
  'tag:urgent', // tag
  'has:attachment larger:100k after:2026-10-24', // attachment, size and date combined
];

/**
 * Mailpit's spelling of a search beside q's: they read into the same syntax tree, so the figure is what reading
 * Mailpit's language costs on top. Mailpit's to: is q's to-header:.
 */
const DIALECT_PAIRS: [mailpit: string, q: string][] = [
  ['account', 'account'],
  [String(RARE_USER_ID), String(RARE_USER_ID)],
  ['"weekly report"', '"weekly report"'],
  ['from:billing@acme.example', 'from:billing@acme.example'],
  ['to:jane.doe@', 'to-header:jane.doe@'],
  ['cc:jane.doe@', 'cc:jane.doe@'],
  ['bcc:jane.doe@', 'bcc:jane.doe@'],
  ['addressed:jane.doe@', 'addressed:jane.doe@'],
  ['message-id:@acme.example', 'message-id:@acme.example'],
  ['subject:invoice is:unread', 'subject:invoice is:unread'],
  ['-from:noreply', '-from:noreply'],
  ['tag:urgent', 'tag:urgent'],
  ['has:attachment larger:100k after:2026-10-24', 'has:attachment larger:100k after:2026-10-24'],
];

/** Two-character needles: too short for the trigram index, so they are decided by instr() alone. */
const SHORT_NEEDLES = [
  'er', // common: the newest page fills after a few rows
  'qz', // absent from the generated text: every message of the inbox is examined
];

// ---------- deterministic data ----------

/** mulberry32: a tiny seeded PRNG, good enough for test data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;

const COMMON_WORDS = `the to and of a your you for is in this on please we be with that it has have will account
  if are from at our by can not or an as all more any new email about team click here link below us order
  update information message thanks regards best support service time if please details review payment
  password access request today just one need help contact questions now available change settings security
  report week data customer project status meeting notes number total amount due date invoice receipt
  shipped delivery confirm verify address user users following changes released version feature issue
  ticket resolved pending approved declined subscription plan billing renewal trial expire expires active
  reminder schedule calendar event invitation accepted team members share document file attached attachment
  download upload storage limit usage monthly weekly daily summary dashboard metrics performance error
  warning alert failed passed build deploy production staging server database backup restore completed
  started finished processing received sent delivered opened clicked unsubscribe preferences notification
  notifications privacy policy terms agreement signed signature welcome started getting guide tutorial
  learn started onboarding profile complete photo name phone mobile device sign signed login logged session
  location browser windows mac linux android iphone app application version download install upgrade`
  .split(/\s+/)
  .filter((word, index, all) => word !== '' && all.indexOf(word) === index);

/** Pseudo-words from syllables that never contain 'q', so the needle "qz" stays absent. */
function buildVocabulary(size: number): string[] {
  const onsets = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'st', 'tr', 'sh', 'ch', 'th'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
  const codas = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'rt', 'st', 'ck'];
  const words = [...COMMON_WORDS];
  const seen = new Set(words);
  while (words.length < size) {
    let word = '';
    const syllables = int(2, 4);
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels) + (i === syllables - 1 ? pick(codas) : '');
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

const VOCABULARY = buildVocabulary(4000);
const nextWordIndex = zipf(VOCABULARY.length, 1.05);
const nextWord = () => nextWordIndex(random());
const FIRST_NAMES = ['jane', 'john', 'maria', 'ahmed', 'li', 'olga', 'peter', 'sofia', 'kenji', 'amara', 'lucas', 'emma', 'noah', 'mia', 'ivan', 'fatima', 'diego', 'chloe', 'raj', 'anna', 'tom', 'lena', 'omar', 'sara', 'felix', 'nina', 'paul', 'eva', 'leo', 'zoe'];
const LAST_NAMES = ['doe', 'smith', 'garcia', 'khan', 'wei', 'ivanova', 'muller', 'rossi', 'tanaka', 'okafor', 'silva', 'jensen', 'brown', 'novak', 'petrov', 'haddad', 'lopez', 'martin', 'patel', 'berg', 'kowalski', 'nguyen', 'ali', 'cohen', 'fischer', 'moreau', 'sato', 'adeyemi', 'larsen', 'dubois'];
const COMPANIES = ['ACME', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Cyberdyne', 'Soylent', 'Tyrell', 'Vandelay', 'Oceanic', 'Massive', 'Dunder', 'Pied Piper', 'Aperture', 'Black Mesa', 'Monarch', 'Gringotts'];
const CITIES = ['Berlin', 'Lagos', 'Lima', 'Osaka', 'Toronto', 'Madrid', 'Nairobi', 'Hanoi', 'Oslo', 'Austin', 'Porto', 'Seoul'];
const PROJECTS = ['api', 'web', 'billing', 'mobile', 'infra', 'search', 'payments', 'auth'];
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const domainOf = (company: string) => `${company.toLowerCase().replace(/\s+/g, '')}.example`;

interface Address {
  name: string;
  address: string;
}

/** ~2,000 senders: a few service mailboxes that send most mail, then a long tail of people. */
function buildSenders(): Address[] {
  const senders: Address[] = [
    { name: 'ACME Billing', address: 'billing@acme.example' },
    { name: 'Globex Security', address: 'security@globex.example' },
    { name: 'Initech Alerts', address: 'alerts@initech.example' },
  ];
  const services = ['noreply', 'no-reply', 'billing', 'support', 'notifications', 'alerts', 'security', 'reports', 'hello', 'team'];
  for (const company of COMPANIES) {
    for (const service of services) senders.push({ name: `${company} ${capitalize(service.replace('-', ' '))}`, address: `${service}@${domainOf(company)}` });
  }
  const seen = new Set(senders.map((s) => s.address));
  while (senders.length < 2000) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const address = `${first}.${last}${int(1, 99)}@${pick(['mail', 'corp', 'team', 'post'])}.${domainOf(pick(COMPANIES))}`;
    if (seen.has(address)) continue;
    seen.add(address);
    senders.push({ name: `${capitalize(first)} ${capitalize(last)}`, address });
  }
  return senders;
}

interface Recipient extends Address {
  /** Five digits; mail to this user mentions it ("Welcome, user 12345"). */
  userId: number;
}

/** ~3,000 recipients (test users), jane.doe@ first and the RARE_USER_ID user last. */
function buildRecipients(): Recipient[] {
  const recipients: Recipient[] = [{ name: 'Jane Doe', address: 'jane.doe@example.com', userId: 10001 }];
  const seen = new Set(recipients.map((r) => r.address));
  const ids = new Set([10001, RARE_USER_ID]);
  while (recipients.length < 3000) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const address = `${first}.${last}+test${int(1, 999)}@${pick(['example.com', 'example.org', 'test.example', 'qa.example.net'])}`;
    const userId = recipients.length === 2999 ? RARE_USER_ID : int(10000, 99999);
    if (seen.has(address) || (ids.has(userId) && userId !== RARE_USER_ID)) continue;
    seen.add(address);
    ids.add(userId);
    recipients.push({ name: `${capitalize(first)} ${capitalize(last)}`, address, userId });
  }
  return recipients;
}

const SENDERS = buildSenders();
const RECIPIENTS = buildRecipients();
const nextSenderIndex = zipf(SENDERS.length, 1.1);
const nextSender = () => nextSenderIndex(random());
const nextRecipientIndex = zipf(RECIPIENTS.length, 0.8);
const nextRecipient = () => nextRecipientIndex(random());
const formatAddress = (a: Address) => `"${a.name}" <${a.address}>`;

const SUBJECTS: ((to: Recipient) => string)[] = [
  () => 'Reset your password',
  () => `Invoice #${int(10000, 99999)} for ${pick(COMPANIES)}`,
  () => `Weekly report week ${int(1, 52)}`,
  (to) => `Welcome, user ${to.userId}`,
  () => `Your order #${int(100000, 999999)} has shipped`,
  () => 'Verify your email address',
  () => `[${pick(PROJECTS)}] Build #${int(1000, 9999)} ${pick(['passed', 'failed', 'fixed'])}`,
  () => `Meeting notes: ${VOCABULARY[nextWord()]} ${VOCABULARY[nextWord()]}`,
  () => `Your ${pick(COMPANIES)} receipt`,
  () => `Action required: ${VOCABULARY[nextWord()]} ${VOCABULARY[nextWord()]}`,
  () => `Re: ${VOCABULARY[nextWord()]} ${VOCABULARY[nextWord()]} ${VOCABULARY[nextWord()]}`,
  () => `Security alert: new sign-in from ${pick(CITIES)}`,
  (to) => `Password changed for user ${to.userId}`,
  () => `Daily digest for ${new Date(WINDOW_END - int(0, 30) * 86400000).toISOString().slice(0, 10)}`,
];

/** Mentions of users name the recipient mostly, now and then another test user. */
function sentence(to: Recipient): string {
  const words: string[] = [];
  const length = int(6, 16);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.03) words.push(`user ${(chance(0.8) ? to : RECIPIENTS[nextRecipient()]!).userId}`);
    else if (roll < 0.05) words.push(`#${int(10000, 999999)}`);
    else if (roll < 0.06) words.push(`$${int(1, 9999)}.${String(int(0, 99)).padStart(2, '0')}`);
    else words.push(VOCABULARY[nextWord()]!);
  }
  if (chance(0.05)) words.splice(int(0, words.length), 0, 'weekly', 'report');
  return `${capitalize(words.join(' '))}${pick(['.', '.', '.', '!', '?'])}`;
}

/** 50-300 words: greeting, sentences in paragraphs, sign-off. */
function body(recipient: Recipient, sender: Address): string {
  const target = int(50, 300);
  const paragraphs: string[] = [`Hi ${recipient.name.split(' ')[0]},`];
  let words = 2;
  let paragraph: string[] = [];
  while (words < target) {
    const next = sentence(recipient);
    words += next.split(' ').length;
    paragraph.push(next);
    if (paragraph.length >= int(2, 5)) {
      paragraphs.push(paragraph.join(' '));
      paragraph = [];
    }
  }
  if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
  paragraphs.push(`Best regards,\n${sender.name}`);
  return paragraphs.join('\n\n');
}

/** Arrival times over the window, ascending, so ids (ULIDs seeded with the time) sort the way they would live. */
function arrivalTimes(count: number): Float64Array {
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) times[i] = Math.floor(WINDOW_END - random() * WINDOW_MS);
  return times.sort();
}

/** The address keys of the header fields, as the parse at capture finds them; Bcc recipients are in the envelope alone. */
function headerAddresses(sender: { address: string }, to: { address: string }[], cc: { address: string }[]): HeaderAddressKeys {
  const keys = (list: { address: string }[]) => mailboxKeys(list.map((entry) => entry.address));
  return { from: keys([sender]), to: keys(to), cc: keys(cc), bcc: [], replyTo: [] };
}

function generateMessage(workspaceId: string, inboxId: string, receivedAt: number): MessageRecord {
  const sender = SENDERS[nextSender()]!;
  const to = [RECIPIENTS[nextRecipient()]!];
  if (chance(0.1)) to.push(RECIPIENTS[nextRecipient()]!);
  const cc = chance(0.15) ? [RECIPIENTS[nextRecipient()]!] : [];
  const bcc = chance(0.05) ? [RECIPIENTS[nextRecipient()]!] : [];
  const envelopeFrom = chance(0.3) ? `bounces+${int(100000, 999999)}@mail.${sender.address.split('@')[1]}` : sender.address;
  const text = body(to[0]!, sender);
  const format = random();
  const hasText = format < 0.9; // 60% text+html, 30% text only, 10% html only
  const hasHtml = format < 0.6 || format >= 0.9;
  const attachmentCount = chance(0.15) ? int(1, 3) : 0;
  // Log-uniform 1-200 KB; mail with attachments sits in the upper part.
  const kb = attachmentCount > 0 ? int(20, 200) : Math.exp(random() * Math.log(200));
  const tags: string[] = [];
  if (chance(0.05)) tags.push('urgent');
  if (chance(0.08)) tags.push('review');
  const id = newId('msg', receivedAt);
  const headers = {
    subject: pick(SUBJECTS)(to[0]!),
    from: formatAddress(sender),
    to: to.map(formatAddress).join(', '),
    cc: cc.map(formatAddress).join(', '),
    envelopeFrom,
    recipients: [...to, ...cc, ...bcc].map((a) => a.address),
    messageId: `<${id}@${sender.address.split('@')[1]}>`,
  };
  return {
    id,
    workspaceId,
    inboxId,
    receivedAt: new Date(receivedAt),
    ...headers,
    size: Math.max(1024, Math.round(kb * 1024)),
    hasText,
    hasHtml,
    attachmentCount,
    inlineCount: 0,
    linkCount: int(0, 6),
    snippet: snippetOf(text),
    codes: [],
    linkDetails: [],
    tls: chance(0.8),
    parseError: null,
    analysisCutShort: false,
    read: chance(0.4),
    tags,
    // The list endpoint never reads the raw blob, so none is written.
    rawKey: `raw/${workspaceId}/${id}.eml`,
    // As the ingest pipeline does: the HTML alternative's text repeats the plain text.
    search: searchFields({ ...headers, bcc: '', replyTo: '', headerAddresses: headerAddresses(sender, to, cc) }, searchBody(hasText ? text : '', hasHtml ? text : '')),
  };
}

// ---------- measurement ----------

const progress = (line: string) => process.stderr.write(`[bench:search] ${line}\n`);

const LOAD_WRITERS = 8;

/** The server's configuration for a data dir, on the profile SANDBOX_TEST_PROFILE names (as the test suites do). */
const benchConfig = (dataDir: string) => loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) });

async function load(dataDir: string, count: number): Promise<{ workspaceId: string; inboxId: string; key: string; seconds: number }> {
  const config = benchConfig(dataDir);
  const backend = await openBackend(config);
  try {
    const workspaces = new WorkspaceService(backend.metadata, backend.captures, config.plans);
    const inboxes = new InboxService(backend);
    const { workspace } = await workspaces.createWorkspace('search-bench', 'unlimited');
    const { inbox } = await inboxes.create(workspace, workspaces.planFor(workspace), 'search-bench');
    const key = await workspaces.createKey(workspace.id, 'read');
    const times = arrivalTimes(count);
    const started = performance.now();
    let next = 0;
    let loaded = 0;
    // Several writers at once, as several SMTP sessions would be: the cluster profile shares index refreshes between them.
    const writer = async () => {
      for (let i = next++; i < count; i = next++) {
        const message = generateMessage(workspace.id, inbox.id, times[i]!);
        // The unlimited plan: the charge only counts the message for its month.
        const [outcome] = await backend.captures.storeAll([{ record: message, charge: { period: quotaPeriod(message.receivedAt), monthlyLimit: null }, blobs: [] }]);
        if (outcome !== 'stored') throw new Error(`the index refused a message: ${String(outcome)}`);
        if (++loaded % 10000 === 0 || loaded === count) progress(`loaded ${loaded}/${count} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    };
    await Promise.all(Array.from({ length: LOAD_WRITERS }, writer));
    return { workspaceId: workspace.id, inboxId: inbox.id, key: key.key, seconds: (performance.now() - started) / 1000 };
  } finally {
    await backend.close();
  }
}

/** A data dir kept by an earlier run: its bench inbox and message count, and a fresh read key. */
async function reuse(dataDir: string): Promise<{ workspaceId: string; inboxId: string; key: string; messages: number }> {
  const config = benchConfig(dataDir);
  const backend = await openBackend(config);
  try {
    const workspaces = new WorkspaceService(backend.metadata, backend.captures, config.plans);
    const inboxes = new InboxService(backend);
    const workspace = (await workspaces.listWorkspaces()).find((w) => w.name === 'search-bench');
    const inbox = workspace && (await inboxes.list(workspace.id)).find((i) => i.name === 'search-bench');
    if (!workspace || !inbox) throw new Error(`${dataDir} holds no search-bench inbox; keep one with BENCH_KEEP_DATA=1`);
    const key = await workspaces.createKey(workspace.id, 'read');
    return { workspaceId: workspace.id, inboxId: inbox.id, key: key.key, messages: inbox.messageCount };
  } finally {
    await backend.close();
  }
}

interface QueryResult {
  q: string;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  first_page: number;
  more: boolean;
}

async function measure(httpUrl: string, key: string, inboxId: string, q: string, samples: number[]): Promise<QueryResult> {
  const pathname = `/v1/inboxes/${inboxId}/messages`;
  const url = `${httpUrl}${pathname}?q=${encodeURIComponent(q)}&limit=${PAGE_LIMIT}`;
  const headers = { authorization: `Bearer ${key}` };
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const bytes = Buffer.from(await response.arrayBuffer());
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`q=${q} answered ${response.status}: ${bytes.toString().slice(0, 300)}`);
    return { elapsed, bytes, contentType: response.headers.get('content-type') ?? '' };
  };
  const first = await once();
  // Checked once, outside the timed runs: the answer is a valid page of the contract.
  assertMatchesContract('GET', pathname, 200, first.contentType, first.bytes);
  const page = JSON.parse(first.bytes.toString()) as { data: unknown[]; next_cursor?: string };
  for (let i = 1; i < WARMUP_RUNS; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) times.push((await once()).elapsed);
  samples.push(...times);
  times.sort((a, b) => a - b);
  const result = { q, p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), max_ms: round(times.at(-1)!), first_page: page.data.length, more: page.next_cursor !== undefined };
  progress(`${JSON.stringify(q)}: p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms, max ${result.max_ms} ms, first page ${result.first_page}${result.more ? '+' : ''}`);
  return result;
}

interface DialectResult {
  mailpit: string;
  q: string;
  mailpit_p50_ms: number;
  q_p50_ms: number;
  mailpit_p95_ms: number;
  q_p95_ms: number;
  /** Mailpit's p50 over q's. */
  ratio: number;
  first_page: number;
}

/**
 * Each pair's two searches by turns, each first every other time (so drift on the machine falls on both alike), parse included, as first pages of
 * PAGE_LIMIT through the message service on the profile's own backend, before the server opens the data.
 */
async function measureDialects(dataDir: string, workspaceId: string, inboxId: string): Promise<DialectResult[]> {
  const config = benchConfig(dataDir);
  const backend = await openBackend(config);
  try {
    const messages = new MessageService(backend, new InboxService(backend), config.scanRowsPerPage);
    const page = async (filter: () => QueryNode, key: string) => {
      const started = performance.now();
      const { items } = await messages.list(workspaceId, inboxId, { filter: filter(), filterKey: key, limit: PAGE_LIMIT, cursor: null });
      return { elapsed: performance.now() - started, ids: items.map((item) => item.id) };
    };
    const results: DialectResult[] = [];
    for (const [mailpit, q] of DIALECT_PAIRS) {
      const readMailpit = () => parseMailpitSearch(mailpit);
      const readQ = () => parseQuery(q);
      const [first, firstQ] = [await page(readMailpit, mailpit), await page(readQ, q)];
      if (first.ids.join() !== firstQ.ids.join()) throw new Error(`Mailpit's ${mailpit} and q's ${q} found different first pages`);
      for (let i = 1; i < WARMUP_RUNS; i++) {
        await page(readMailpit, mailpit);
        await page(readQ, q);
      }
      const [times, timesQ]: [number[], number[]] = [[], []];
      // Which of the two goes first alternates: the second of a pair finds the pages the first read in the cache.
      for (let i = 0; i < MEASURED_RUNS; i++) {
        if (i % 2 === 1) timesQ.push((await page(readQ, q)).elapsed);
        times.push((await page(readMailpit, mailpit)).elapsed);
        if (i % 2 === 0) timesQ.push((await page(readQ, q)).elapsed);
      }
      times.sort((a, b) => a - b);
      timesQ.sort((a, b) => a - b);
      const result = {
        mailpit, q, mailpit_p50_ms: round(percentile(times, 50)), q_p50_ms: round(percentile(timesQ, 50)),
        mailpit_p95_ms: round(percentile(times, 95)), q_p95_ms: round(percentile(timesQ, 95)),
        ratio: round(percentile(times, 50) / percentile(timesQ, 50), 3), first_page: first.ids.length,
      };
      progress(`Mailpit ${JSON.stringify(mailpit)} p50 ${result.mailpit_p50_ms} ms beside q ${JSON.stringify(q)} p50 ${result.q_p50_ms} ms (x${result.ratio}), first page ${result.first_page}`);
      results.push(result);
    }
    return results;
  } finally {
    await backend.close();
  }
}

async function main(): Promise<void> {
  const reuseDir = process.env.BENCH_DATA_DIR || null;
  const keepData = process.env.BENCH_KEEP_DATA === '1' || reuseDir !== null;
  const dataDir = reuseDir ?? tempDataDir();
  try {
    let loaded: { workspaceId: string; inboxId: string; key: string; messages: number; seconds: number | null };
    if (reuseDir) {
      loaded = { ...(await reuse(reuseDir)), seconds: null };
      progress(`reusing ${reuseDir}: ${loaded.messages} messages, not loaded by this run`);
    } else {
      const messages = positiveInt('BENCH_MESSAGES', process.env.BENCH_MESSAGES, 100_000);
      progress(`data dir ${dataDir}; generating and loading ${messages} messages`);
      loaded = { ...(await load(dataDir, messages)), messages };
    }
    // The cluster profile's data is on the services, not in the data dir.
    const dbSizeMb = testProfile() === 'embedded' ? round(directoryBytes(dataDir) / 1024 ** 2, 1) : null;
    progress(`${loaded.seconds === null ? '' : `loaded in ${loaded.seconds.toFixed(1)} s; `}data dir ${dbSizeMb ?? '-'} MB; starting the server`);
    const dialects = await measureDialects(dataDir, loaded.workspaceId, loaded.inboxId);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    // Default log level: startServer learns the ports from the info line the server prints when it listens.
    const server = await startServer({ dataDir });
    try {
      const samples: number[] = [];
      const queries: QueryResult[] = [];
      for (const q of QUERIES) queries.push(await measure(server.httpUrl, loaded.key, loaded.inboxId, q, samples));
      const shortNeedles: QueryResult[] = [];
      for (const q of SHORT_NEEDLES) shortNeedles.push(await measure(server.httpUrl, loaded.key, loaded.inboxId, q, []));
      samples.sort((a, b) => a - b);
      const result = {
        bench: 'search',
        profile: testProfile(),
        messages: loaded.messages,
        load_seconds: loaded.seconds === null ? null : round(loaded.seconds, 1),
        db_size_mb: dbSizeMb,
        queries,
        overall: { p50_ms: round(percentile(samples, 50)), p95_ms: round(percentile(samples, 95)) },
        short_needles: shortNeedles,
        mailpit_dialect: {
          pairs: dialects,
          /** All pairs' Mailpit p50s over all their q p50s. */
          ratio: round(sum(dialects.map((d) => d.mailpit_p50_ms)) / sum(dialects.map((d) => d.q_p50_ms)), 3),
        },
        runs_per_query: MEASURED_RUNS,
        page_limit: PAGE_LIMIT,
        node: process.version,
        cpus: os.cpus().length,
      };
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } finally {
      await server.stop();
    }
  } finally {
    if (keepData) {
      progress(`kept the data dir ${dataDir}`);
    } else {
      if (testProfile() === 'cluster') await purgeClusterNamespace(benchConfig(dataDir));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`search bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
