// End-to-end check of the q search language (and the from/to/subject/since list parameters) against an
// independent oracle: the tokenizer, parser and matcher below are written from the contract (openapi.yaml,
// SearchQuery, and the issue's semantics), NOT from src/query/. A seeded generator sends ~60 varied messages
// over real SMTP to the real built server, then every query's ids (newest first) must equal the oracle's.
//
// Readings of the contract this oracle commits to (where the text leaves room, the data avoids the gap):
// - "The text of the HTML body" is the readable text: tags removed (block tags and <br> separate words),
//   entities decoded; attribute values (href, class) are not text. The HTML here is simple enough that any
//   reasonable HTML-to-text conversion gives the same words; only href/attribute tokens are probed.
// - Free text (word or phrase) and operator values are substrings after Unicode lower-casing, with runs of
//   white space compared as one space. The data avoids ß/SS, final sigma and dotted I, where simple and full
//   case folding differ.
// - A From/To/Cc header matches through its display name or its address (no query spans the two).
// - `-`/`!` must touch the term or group it negates; `OR` must have a term on both sides.
import { strict as assert } from 'node:assert';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxJson, MessageCountJson, MessageDetailJson, MessageSummaryJson } from '../support/api-json.js';
import { expectError, expectOk, type Envelope } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, smtpTransport, storedId } from '../support/smtp.js';

const SEED = Number(process.env.SEARCH_TEST_SEED ?? 20261120);

// ---------------------------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32).

class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    assert.ok(items.length > 0, 'pick from an empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return out;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The corpus: what is sent, and what the oracle knows about each stored message.

interface Person {
  name?: string;
  address: string;
}

interface MessageSpec {
  label: string;
  from: Person;
  envelopeFrom: string;
  to: Person[];
  cc: Person[];
  /** Only in the SMTP envelope, never in a header. */
  bcc: string[];
  /** The RCPT TO list; defaults to To + Cc + Bcc addresses. */
  envelopeTo?: string[];
  subject: string;
  text?: string;
  html?: string;
  attachments: { filename: string; content: string }[];
  replyTo?: string;
  headers?: Record<string, string>;
}

interface Rec {
  spec: MessageSpec;
  id: string;
  label: string;
  batch: number;
  recipients: string[];
  /** The readable text of the HTML body (see htmlReadableText). */
  htmlText?: string;
  receivedAt: string;
  receivedMs: number;
  size: number;
  attachmentCount: number;
  read: boolean;
  tags: string[];
}

const FROM_PEOPLE: Person[] = [
  { name: 'Alice Martin', address: 'alice@alpha.example' },
  { name: 'Bob Stone', address: 'bob.stone@stone.example' },
  { name: 'Carol Ng', address: 'carol@ng.example' },
  { address: 'dave@delta.example' },
  { name: 'Billing Team', address: 'billing@shop.example' },
  { name: 'Acme Notifications', address: 'no-reply@acme.example' },
];
const byAddress = (address: string): Person => FROM_PEOPLE.find((p) => p.address === address)!;
const ALICE = byAddress('alice@alpha.example');
const BOB = byAddress('bob.stone@stone.example');
const CAROL = byAddress('carol@ng.example');
const DAVE = byAddress('dave@delta.example');
const ACME = byAddress('no-reply@acme.example');

const TO_POOL: Person[] = [
  { name: 'Uma Reed', address: 'uma@users.example' },
  { name: 'Victor Hale', address: 'victor@users.example' },
  { address: 'team@corp.example' },
  { name: 'Wendy Park', address: 'wendy.park@corp.example' },
];
const UMA = TO_POOL[0]!;
const VICTOR = TO_POOL[1]!;
const TEAM = TO_POOL[2]!;
const CC_POOL: Person[] = [{ name: 'Xavier Cole', address: 'xavier@cc.example' }, { address: 'records@archive.example' }];
const BCC_POOL = ['audit@vault.example', 'hidden.observer@ghost.example'];

const SUBJECTS = ['Invoice', 'Weekly report', 'Order shipped', 'Meeting agenda', 'Payment reminder', 'Receipt', 'Follow-up', 'Orbit update', 'Welcome aboard'];
const SUBJECT_SUFFIXES = ['for March', 'for April', '(urgent)', '#'];
const BODY_WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'zulu'];
const BODY_PHRASES = ['weekly report attached', 'payment is due', 'order has shipped', 'see you at the meeting'];
const TAGS = ['Urgent', 'billing', 'team/ops', 'needs review', 'Été', 'ci:green'];

/** Hand-made messages, each carrying what one family of hand-written queries needs. */
function specialMessages(): MessageSpec[] {
  const base = { cc: [], bcc: [], attachments: [] };
  return [
    { ...base, label: 'ecole-subject', from: ALICE, envelopeFrom: ALICE.address, to: [UMA], subject: 'Inscription école primaire', text: 'alpha details inside' },
    { ...base, label: 'ecole-text', from: CAROL, envelopeFrom: CAROL.address, to: [VICTOR], subject: 'Notice', text: "L'ÉCOLE FERME demain\nbravo" },
    { ...base, label: 'ecole-html', from: ACME, envelopeFrom: ACME.address, to: [TEAM], subject: 'Visite', html: '<p>Visite de l&#39;&eacute;cole</p>\n<p>charlie <b>delta</b></p>' },
    { ...base, label: 'strasse-subject', from: BOB, envelopeFrom: BOB.address, to: [UMA], subject: 'Neue Straße eröffnet', text: 'echo' },
    { ...base, label: 'strasse-text', from: DAVE, envelopeFrom: DAVE.address, to: [VICTOR], subject: 'Umleitung', text: 'Die STRAẞE ist gesperrt' },
    { ...base, label: 'omega-from', from: { name: 'Ωmega Labs', address: 'labs@omega.example' }, envelopeFrom: 'labs@omega.example', to: [TEAM], subject: 'Release notes', text: 'foxtrot' },
    { ...base, label: 'omega-text', from: ALICE, envelopeFrom: ALICE.address, to: [UMA], subject: 'Status', text: 'the ωmega build is green' },
    { ...base, label: 'url-text', from: BOB, envelopeFrom: BOB.address, to: [VICTOR], subject: 'Docs', text: 'See https://docs.example.com/guide/start?x=1 for details\nticket id:12345 assigned' },
    {
      ...base,
      label: 'hidden-tokens',
      from: CAROL,
      envelopeFrom: CAROL.address,
      to: [UMA],
      subject: 'Campaign',
      text: 'golf hotel',
      html: '<p class="classonlyxx">Please <a href="https://track.example.net/hrefonlyvv">click here</a> today</p>\n<p>Cart: <a href="https://track.example.net/r2">https://shop.example.org/cart</a></p>',
      attachments: [{ filename: 'fileonlyqq.txt', content: 'attachonlyww '.repeat(40) }],
      replyTo: 'replyonlyyy@else.example',
      headers: { 'X-Note': 'headeronlyzz' },
    },
    { ...base, label: 'entities-html', from: ACME, envelopeFrom: ACME.address, to: [TEAM], subject: 'Roadmap', text: 'india', html: '<p>R&amp;D <b>roadmap</b> &lt;draft&gt;</p>' },
    { ...base, label: 'ws-text', from: ALICE, envelopeFrom: ALICE.address, to: [VICTOR], subject: 'Budget', text: 'the quarterly\n\n   budget\treview is due' },
    { ...base, label: 'ws-html', from: BOB, envelopeFrom: BOB.address, to: [UMA], subject: 'Budget too', html: '<p>the quarterly review\n   <i>budget</i></p>' },
    { ...base, label: 'bcc-ghost', from: CAROL, envelopeFrom: CAROL.address, to: [UMA], bcc: ['hidden.observer@ghost.example'], subject: 'Internal memo', text: 'juliet' },
    { ...base, label: 'envelope-sender', from: CAROL, envelopeFrom: 'bounce-7781@mailer.example', to: [VICTOR], subject: 'Delivery report', text: 'kilo' },
    {
      ...base,
      label: 'header-only-rcpts',
      from: DAVE,
      envelopeFrom: DAVE.address,
      to: [{ name: 'Frank Header', address: 'frank@toheader.example' }],
      cc: [{ name: 'Erin Copy', address: 'erin@cconly.example' }],
      envelopeTo: ['actual@users.example'],
      subject: 'Header only recipients',
      text: 'lima',
    },
    { ...base, label: 'draft-subject', from: ALICE, envelopeFrom: ALICE.address, to: [VICTOR], subject: 'Re: (draft) agenda for Monday', text: 'mike' },
    { ...base, label: 'html-only', from: BOB, envelopeFrom: BOB.address, to: [TEAM], subject: 'Picture', html: '<div>kilimanjaro <span>summit</span></div>' },
  ];
}

function irregularPhrase(rng: Rng, phrase: string): string {
  return rng.chance(0.25) ? phrase.replace(/ /g, () => rng.pick([' ', '  ', '\n', ' \t '])) : phrase;
}

function randomMessage(rng: Rng, index: number): MessageSpec {
  const from = rng.pick(FROM_PEOPLE);
  const envelopeFrom = rng.chance(0.25) ? rng.pick([`bounce-${rng.int(100, 999)}@mailer.example`, 'relay@relay.example']) : from.address;
  const to = rng.sample(TO_POOL, rng.int(1, 2));
  const cc = rng.chance(0.35) ? rng.sample(CC_POOL, rng.int(1, 2)) : [];
  const bcc = rng.chance(0.2) ? [rng.pick(BCC_POOL)] : [];
  const suffix = rng.chance(0.5) ? rng.pick(SUBJECT_SUFFIXES) : '';
  const subject = `${rng.pick(SUBJECTS)}${suffix === '#' ? ` #${rng.int(100, 999)}` : suffix ? ` ${suffix}` : ''}`;
  const kind = rng.pick(['text', 'html', 'both', 'both'] as const);
  const token = () => (rng.chance(0.3) ? irregularPhrase(rng, rng.pick(BODY_PHRASES)) : rng.pick(BODY_WORDS));
  let text: string | undefined;
  let html: string | undefined;
  if (kind !== 'html') {
    const parts: string[] = [];
    const count = rng.int(3, 8);
    for (let i = 0; i < count; i++) parts.push(token(), i < count - 1 ? rng.pick([' ', ' ', ' ', '\n', '\n\n', '  ', '\t']) : '');
    text = parts.join('');
  }
  if (kind !== 'text') {
    const paragraphs: string[] = [];
    for (let p = rng.int(1, 3); p > 0; p--) {
      const words: string[] = [];
      for (let w = rng.int(2, 5); w > 0; w--) {
        const t = token();
        const roll = rng.next();
        if (roll < 0.25) words.push(`<b>${t}</b>`);
        else if (roll < 0.4) words.push(`<i>${t}</i>`);
        else if (roll < 0.5) words.push(`<span class="hue">${t}</span>`);
        // Links only where a text part exists, so no derived text body could carry the href.
        else if (roll < 0.6 && kind === 'both') words.push(`<a href="https://track.example.net/p/${index}">${t}</a>`);
        else words.push(t);
      }
      paragraphs.push(`<p>${words.join(rng.pick([' ', '\n', ' \n ']))}</p>`);
    }
    html = paragraphs.join('\n');
  }
  const attachments: MessageSpec['attachments'] = [];
  if (rng.chance(0.3)) {
    for (let a = rng.int(1, 2); a > 0; a--) {
      // Attachment content is not searchable; "zulu" is also a body word, so indexing it would show.
      attachments.push({ filename: `data-${index}-${a}.txt`, content: `zulu payload ${'x'.repeat(70)}\n`.repeat(rng.int(5, 500)) });
    }
  }
  return { label: `random-${index}`, from, envelopeFrom, to, cc, bcc, subject, text, html, attachments };
}

/** The readable text of the (simple, controlled) HTML this test sends. */
function htmlReadableText(html: string): string {
  const stripped = html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?(p|div)\b[^>]*>/gi, ' ')
    .replace(/<[^>]+>/g, '');
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", eacute: 'é', Eacute: 'É' };
  return stripped.replace(/&(#?\w+);/g, (whole, name: string) => entities[name] ?? whole).replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------
// The oracle: tokenizer, parser and matcher of the q language, from the contract.

type Node =
  | { kind: 'and' | 'or'; items: Node[] }
  | { kind: 'not'; item: Node }
  | { kind: 'text'; value: string }
  | { kind: 'from' | 'to' | 'cc' | 'subject' | 'tag'; value: string }
  | { kind: 'is'; value: 'read' | 'unread' | 'tagged' }
  | { kind: 'has' }
  | { kind: 'larger' | 'smaller'; bytes: number }
  | { kind: 'after' | 'before'; ms: number };

class OracleQueryError extends Error {
  constructor(
    message: string,
    readonly term: string,
    readonly position: number,
  ) {
    super(`${message}: ${term} at ${position}`);
  }
}

type Token =
  | { type: 'lp' | 'rp' | 'or'; pos: number; raw: string }
  | { type: 'not'; pos: number; raw: string }
  | { type: 'term'; pos: number; raw: string };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const ch = q[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch === '(' ? 'lp' : 'rp', pos: i + 1, raw: ch });
      i++;
    } else if (ch === '-' || ch === '!') {
      tokens.push({ type: 'not', pos: i + 1, raw: ch });
      i++;
    } else {
      const start = i;
      while (i < q.length && !/\s/.test(q[i]!) && q[i] !== '(' && q[i] !== ')') {
        if (q[i] === '"') {
          const close = q.indexOf('"', i + 1);
          if (close < 0) throw new OracleQueryError('unbalanced quote', '"', i + 1);
          i = close + 1;
        } else {
          i++;
        }
      }
      const raw = q.slice(start, i);
      tokens.push({ type: raw === 'OR' ? 'or' : 'term', pos: start + 1, raw });
    }
  }
  return tokens;
}

function parseSize(value: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([kmg])?b?$/i.exec(value);
  if (!match) return null;
  const unit = (match[2] ?? '').toLowerCase();
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(match[1]) * factor;
}

function parseDate(value: string): number | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const ms = Date.UTC(year, month - 1, day);
    const check = new Date(ms);
    return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? ms : null;
  }
  const dateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.exec(value);
  if (!dateTime) return null;
  const [month, day, hour, minute, second] = [dateTime[2], dateTime[3], dateTime[4], dateTime[5], dateTime[6] ?? '0'].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

const OPERATORS = new Set(['from', 'to', 'cc', 'subject', 'is', 'tag', 'has', 'larger', 'smaller', 'after', 'before']);

function termNode(token: Token): Node {
  const raw = token.raw;
  if (raw.startsWith('"')) return { kind: 'text', value: raw.slice(1, -1) };
  const op = /^([A-Za-z]+):(.*)$/s.exec(raw);
  if (!op || !OPERATORS.has(op[1]!.toLowerCase())) return { kind: 'text', value: raw };
  const name = op[1]!.toLowerCase();
  let value = op[2]!;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const invalid = () => new OracleQueryError(`invalid ${name}: value`, raw, token.pos);
  switch (name) {
    case 'from':
    case 'to':
    case 'cc':
    case 'subject':
    case 'tag':
      if (value === '') throw invalid();
      return { kind: name, value };
    case 'is': {
      const v = value.toLowerCase();
      if (v !== 'read' && v !== 'unread' && v !== 'tagged') throw invalid();
      return { kind: 'is', value: v };
    }
    case 'has':
      if (!['attachment', 'attachments'].includes(value.toLowerCase())) throw invalid();
      return { kind: 'has' };
    case 'larger':
    case 'smaller': {
      const bytes = parseSize(value);
      if (bytes === null) throw invalid();
      return { kind: name, bytes };
    }
    default: {
      const ms = parseDate(value);
      if (ms === null) throw invalid();
      return { kind: name as 'after' | 'before', ms };
    }
  }
}

function parseQuery(q: string): Node {
  const tokens = tokenize(q);
  let at = 0;
  const peek = () => tokens[at];

  const parseSequence = (inGroup: boolean): Node => {
    const items: Node[] = [];
    for (let t = peek(); t; t = peek()) {
      if (t.type === 'rp') {
        if (inGroup) break;
        throw new OracleQueryError('unbalanced parenthesis', ')', t.pos);
      }
      items.push(parseOr());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };

  const parseOr = (): Node => {
    const items = [parseUnary()];
    for (let t = peek(); t && t.type === 'or'; t = peek()) {
      at++;
      const next = peek();
      if (!next || next.type === 'rp' || next.type === 'or') throw new OracleQueryError('dangling OR', 'OR', t.pos);
      items.push(parseUnary());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };

  const parseUnary = (): Node => {
    const t = tokens[at++]!;
    switch (t.type) {
      case 'not': {
        const next = peek();
        if (!next || next.type === 'rp' || next.type === 'or' || next.pos !== t.pos + 1) throw new OracleQueryError('dangling negation', t.raw, t.pos);
        return { kind: 'not', item: parseUnary() };
      }
      case 'or':
        throw new OracleQueryError('dangling OR', 'OR', t.pos);
      case 'rp':
        throw new OracleQueryError('unbalanced parenthesis', ')', t.pos);
      case 'lp': {
        const inner = parseSequence(true);
        const close = tokens[at++];
        if (!close || close.type !== 'rp') throw new OracleQueryError('unbalanced parenthesis', '(', t.pos);
        if (inner.kind === 'and' && inner.items.length === 0) throw new OracleQueryError('empty group', '(', t.pos);
        return inner;
      }
      default:
        return termNode(t);
    }
  };

  return parseSequence(false);
}

const fold = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
const containsAny = (fields: (string | undefined)[], needle: string) => {
  const n = fold(needle);
  return fields.some((field) => field !== undefined && fold(field).includes(n));
};
const personFields = (p: Person) => [p.name, p.address];
const fromFields = (r: Rec) => [...personFields(r.spec.from), r.spec.envelopeFrom];
const toFields = (r: Rec) => [...r.spec.to.flatMap(personFields), ...r.spec.cc.flatMap(personFields), ...r.recipients];
const freeTextFields = (r: Rec) => [r.spec.subject, ...fromFields(r), ...toFields(r), r.spec.text, r.htmlText];

function matches(r: Rec, node: Node): boolean {
  switch (node.kind) {
    case 'and':
      return node.items.every((item) => matches(r, item));
    case 'or':
      return node.items.some((item) => matches(r, item));
    case 'not':
      return !matches(r, node.item);
    case 'text':
      return containsAny(freeTextFields(r), node.value);
    case 'from':
      return containsAny(fromFields(r), node.value);
    case 'to':
      return containsAny(toFields(r), node.value);
    case 'cc':
      return containsAny(r.spec.cc.flatMap(personFields), node.value);
    case 'subject':
      return containsAny([r.spec.subject], node.value);
    case 'tag':
      return r.tags.some((tag) => tag.toLowerCase() === node.value.toLowerCase());
    case 'is':
      return node.value === 'read' ? r.read : node.value === 'unread' ? !r.read : r.tags.length > 0;
    case 'has':
      return r.attachmentCount > 0;
    case 'larger':
      return r.size > node.bytes;
    case 'smaller':
      return r.size < node.bytes;
    case 'after':
      return r.receivedMs >= node.ms;
    case 'before':
      return r.receivedMs < node.ms;
  }
}

/** Newest first: received_at descending, then id descending. */
function newestFirst(recs: Rec[]): Rec[] {
  return [...recs].sort((a, b) => b.receivedMs - a.receivedMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

interface ListFilters {
  q?: string;
  from?: string;
  to?: string;
  subject?: string;
  since?: string;
}

function oracleIds(recs: Rec[], filters: ListFilters): string[] {
  const parts: Node[] = [];
  if (filters.q !== undefined) parts.push(parseQuery(filters.q));
  if (filters.from !== undefined) parts.push({ kind: 'from', value: filters.from });
  if (filters.to !== undefined) parts.push({ kind: 'to', value: filters.to });
  if (filters.subject !== undefined) parts.push({ kind: 'subject', value: filters.subject });
  if (filters.since !== undefined) parts.push({ kind: 'after', ms: Date.parse(filters.since) });
  const node: Node = { kind: 'and', items: parts };
  return newestFirst(recs.filter((r) => matches(r, node))).map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------------
// Time helpers.

/** An ISO 8601 date-time of `ms` written in the given UTC offset (minutes), with milliseconds when non-zero. */
function isoAt(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString();
  const body = ms % 1000 === 0 ? local.slice(0, 19) : local.slice(0, 23);
  if (offsetMinutes === 0) return `${body}Z`;
  const abs = Math.abs(offsetMinutes);
  return `${body}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function waitForClockPast(ms: number): Promise<void> {
  await pollUntil(async () => Date.now() >= ms, 5_000, `the clock to pass ${new Date(ms).toISOString()}`, 10);
}

// ---------------------------------------------------------------------------------------------------------
// Hand-written queries. `expect` guards against vacuous cases: 'some' (default) = neither none nor all.

interface Ctx {
  recs: Rec[];
  /** Second boundaries: batch 1 < b1 <= batch 2 < b2 <= batch 3. */
  b1: number;
  b2: number;
  firstDay: string;
  medianSize: number;
  /** A message whose exact size and received_at are probed at the boundary. */
  edge: Rec;
}

interface Case {
  name?: string;
  q: string | ((c: Ctx) => string);
  expect?: 'some' | 'none' | 'all' | 'any';
  /** The oracle must give a different answer for this other query (the case discriminates readings). */
  differsFrom?: string | ((c: Ctx) => string);
}

const CASES: Case[] = [
  // Free text: case, phrases, white space, substrings.
  { q: 'invoice' },
  { q: 'INVOICE' },
  { q: 'InVoIcE' },
  { q: 'weekly report', differsFrom: 'report' },
  { q: '"weekly report"' },
  { q: '"WEEKLY   report"', name: 'phrase with irregular white space in the query' },
  { q: '"ekly rep"', name: 'a phrase is a substring (cut words at both ends)' },
  { q: '"quarterly budget review"', name: 'phrase across newlines and a tab in the text body' },
  { q: '"quarterly budget"' },
  { q: '"review budget"', name: 'phrase across an <i> tag and a newline in HTML' },
  { q: '"budget quarterly"', expect: 'none', name: 'words in the wrong order are not the phrase' },
  { q: 'quarterly budget', differsFrom: '"quarterly budget"' },
  { q: '"see you at the meeting"' },
  { q: 'alice' },
  { q: '"Alice Martin"' },
  { q: 'alice@alpha.example' },
  { q: 'uma', name: 'To header' },
  { q: 'xavier', name: 'Cc header' },
  { q: 'ghost', name: 'Bcc recipient (envelope only) via free text' },
  { q: 'bounce-7781', name: 'envelope sender via free text' },
  { q: 'cconly', name: 'Cc header address not among the envelope recipients' },
  { q: '"Frank Header"', name: 'To header name not among the envelope recipients' },
  { q: 'actual@users.example', name: 'envelope recipient not in any header' },
  { q: 'école' },
  { q: 'ÉCOLE', name: 'ÉCOLE finds école (subject, text, and &eacute; in HTML)' },
  { q: 'Écol' },
  { q: 'straße' },
  { q: 'STRAẞE', name: 'capital sharp s' },
  { q: 'ΩMEGA' },
  { q: 'ωmega' },
  { q: 'https://docs.example.com/guide', name: 'word:rest with a non-operator word is free text (URL)' },
  { q: 'docs.example.com/guide/start?x=1' },
  { q: 'http://docs.example.com', expect: 'none' },
  { q: 'https://shop.example.org/cart', name: 'visible link text in HTML' },
  { q: '"click here"', name: 'phrase inside <a> in HTML' },
  { q: 'hrefonlyvv', expect: 'none', name: 'an href is not text of the HTML body' },
  { q: 'track.example.net', expect: 'none', name: 'href hosts are not text of the HTML body' },
  { q: 'classonlyxx', expect: 'none', name: 'attribute values are not text of the HTML body' },
  { q: 'attachonlyww', expect: 'none', name: 'attachment content is not searched' },
  { q: 'fileonlyqq', expect: 'none', name: 'attachment file names are not searched' },
  { q: 'headeronlyzz', expect: 'none', name: 'other headers are not searched' },
  { q: 'replyonlyyy', expect: 'none', name: 'Reply-To is not searched' },
  { q: 'zulu', name: 'body word that also fills attachments' },
  { q: 'r&d', name: '&amp; is decoded in the HTML text' },
  { q: '"R&D roadmap"' },
  { q: '<draft>', name: '&lt; &gt; are decoded in the HTML text' },
  { q: '&amp;', expect: 'none', name: 'raw entities are not text' },
  { q: 'kilimanjaro', name: 'word only in an HTML-only message' },
  { q: '"kilimanjaro summit"' },
  { q: 'id:12345', name: 'word:rest free text' },
  { q: 'ID:12345' },
  { q: 'cc:xavier', name: 'cc: reads the Cc header' },
  { q: 'cc:uma', expect: 'none', name: 'cc: reads no other header' },
  { q: 'example', expect: 'all' },
  { q: 'zzzznotthere', expect: 'none' },
  { q: '"(draft)"', name: 'parentheses inside a phrase are literal' },
  { q: 'follow-up', name: 'a hyphen inside a word is not negation' },
  // from:
  { q: 'from:alice' },
  { q: 'FROM:ALICE', name: 'operator name and value case-insensitive' },
  { q: 'From:"Alice Martin"' },
  { q: 'from:stone.example' },
  { q: 'from:mailer.example', name: 'envelope sender' },
  { q: 'from:bounce' },
  { q: 'from:ghost', expect: 'none' },
  { q: 'from:uma', expect: 'none', name: 'recipients are not senders' },
  { q: 'from:"Ωmega Labs"' },
  { q: 'from:ωMEGA' },
  { q: '-from:alice' },
  { q: 'from:dave@delta.example' },
  // to:
  { q: 'to:uma' },
  { q: 'to:ghost', name: 'Bcc recipients are found by to:' },
  { q: 'to:vault' },
  { q: 'to:xavier', name: 'Cc via to:' },
  { q: 'to:cconly', name: 'Cc header only (not an envelope recipient)' },
  { q: 'to:"Frank Header"' },
  { q: 'to:"Victor Hale"' },
  { q: 'TO:Team@Corp' },
  { q: 'to:alice', expect: 'none' },
  { q: 'to:bounce', expect: 'none', name: 'envelope sender is not a recipient' },
  { q: 'to:actual' },
  // subject:
  { q: 'subject:invoice' },
  { q: 'subject:"weekly report"' },
  { q: 'SUBJECT:WEEKLY' },
  { q: 'subject:"(draft)"' },
  { q: 'subject:ÉCOLE' },
  { q: 'subject:straße' },
  { q: 'subject:alpha', expect: 'none', name: 'subject: does not look at bodies' },
  { q: 'subject:"order shipped" OR subject:receipt' },
  { q: 'subject:#' },
  // is:, tag:, has:
  { q: 'is:read' },
  { q: 'is:unread' },
  { q: 'IS:READ' },
  { q: 'is:Unread' },
  { q: 'is:tagged' },
  { q: '-is:tagged' },
  { q: 'is:read is:unread', expect: 'none' },
  { q: 'tag:urgent' },
  { q: 'tag:URGENT' },
  { q: 'tag:"needs review"' },
  { q: 'tag:needs', expect: 'none', name: 'tag: is exact, not a substring' },
  { q: 'tag:team/ops' },
  { q: 'tag:ÉTÉ', name: 'tag: case-insensitive beyond ASCII' },
  { q: 'tag:ci:green', name: 'tag value containing a colon' },
  { q: 'tag:urgent OR tag:billing' },
  { q: 'has:attachment' },
  { q: 'has:attachments' },
  { q: 'HAS:Attachment' },
  { q: '-has:attachment' },
  // Sizes.
  { name: 'larger: median bytes', q: (c) => `larger:${c.medianSize}` },
  { name: 'smaller: median bytes', q: (c) => `smaller:${c.medianSize}` },
  { name: 'smaller:<n>K', q: (c) => `smaller:${Math.ceil(c.medianSize / 1024)}K` },
  { name: 'larger:<decimal>k', q: (c) => `larger:${(c.medianSize / 1024).toFixed(3)}k` },
  { name: 'smaller:<decimal>KB', q: (c) => `smaller:${(c.medianSize / 1024).toFixed(2)}KB` },
  { name: 'larger:<decimal>m', q: (c) => `larger:${(c.medianSize / 1024 ** 2).toFixed(5)}m` },
  { name: 'smaller:<decimal>Mb', q: (c) => `smaller:${(c.medianSize / 1024 ** 2).toFixed(5)}Mb` },
  { q: 'larger:1.5k', expect: 'any' },
  { q: 'LARGER:2KB', expect: 'any' },
  { q: 'smaller:1g', expect: 'all' },
  { q: 'larger:1G', expect: 'none' },
  { q: 'larger:0.0000001g', expect: 'all', name: 'larger:0.0000001g (about 107 bytes)' },
  { name: 'larger:S excludes size S', q: (c) => `larger:${c.edge.size}`, differsFrom: (c) => `larger:${c.edge.size - 1}` },
  { name: 'larger:S-1 includes size S', q: (c) => `larger:${c.edge.size - 1}` },
  { name: 'smaller:S excludes size S', q: (c) => `smaller:${c.edge.size}`, differsFrom: (c) => `smaller:${c.edge.size + 1}` },
  { name: 'smaller:S+1 includes size S', q: (c) => `smaller:${c.edge.size + 1}` },
  { name: 'smaller:(S+0.5)/1024 k keeps the fraction', q: (c) => `smaller:${(c.edge.size + 0.5) / 1024}k`, differsFrom: (c) => `smaller:${c.edge.size}` },
  { name: 'larger:(S-0.5)/1024 K keeps the fraction', q: (c) => `larger:${(c.edge.size - 0.5) / 1024}K`, differsFrom: (c) => `larger:${c.edge.size}` },
  // Dates.
  { name: 'after: boundary in Z', q: (c) => `after:${isoAt(c.b1, 0)}` },
  { name: 'before: boundary in Z', q: (c) => `before:${isoAt(c.b1, 0)}` },
  { name: 'after: boundary at +02:00', q: (c) => `after:${isoAt(c.b1, 120)}` },
  { name: 'before: boundary at -05:30', q: (c) => `before:${isoAt(c.b2, -330)}` },
  { name: 'after: and before: (the middle batch)', q: (c) => `after:${isoAt(c.b1, 0)} before:${isoAt(c.b2, 60)}` },
  { name: '-after: equals before:', q: (c) => `-after:${isoAt(c.b1, 0)}` },
  { name: 'after: today (date only)', q: (c) => `after:${c.firstDay}`, expect: 'any' },
  { name: 'before: today (date only)', q: (c) => `before:${c.firstDay}`, expect: 'any' },
  { name: 'before: tomorrow', q: (c) => `before:${dayOf(Date.parse(c.firstDay) + 86_400_000)}`, expect: 'all' },
  { name: 'after: tomorrow', q: (c) => `after:${dayOf(Date.parse(c.firstDay) + 86_400_000)}`, expect: 'none' },
  { name: 'before: yesterday', q: (c) => `before:${dayOf(Date.parse(c.firstDay) - 86_400_000)}`, expect: 'none' },
  { q: 'AFTER:2000-01-01', expect: 'all' },
  { name: 'after: exactly received_at includes the message (at or after)', q: (c) => `after:${c.edge.receivedAt}` },
  { name: 'before: exactly received_at excludes the message (strictly before)', q: (c) => `before:${c.edge.receivedAt}` },
  { name: 'after: exact received_at with milliseconds at +05:45', q: (c) => `after:${isoAt(c.edge.receivedMs, 345)}` },
  // Structure: OR precedence, groups, negation.
  { q: 'from:alice OR from:bob subject:budget', differsFrom: 'from:alice OR (from:bob subject:budget)' },
  { q: '(from:alice OR from:bob) subject:budget' },
  { q: 'from:alice OR (from:bob subject:budget)' },
  { q: 'from:carol OR from:dave subject:report', differsFrom: 'from:carol OR (from:dave subject:report)' },
  { q: 'invoice OR receipt OR reminder' },
  { q: '(invoice OR receipt) -has:attachment' },
  { q: '!is:read' },
  { q: '!(from:alice OR from:bob)' },
  { q: '-(invoice OR receipt) is:unread' },
  { q: '-"weekly report"' },
  { q: '!subject:"weekly report"' },
  { q: '-from:alice OR is:read', differsFrom: '-(from:alice OR is:read)', name: 'negation binds to the term, inside OR' },
  { q: '((alpha OR bravo) (charlie OR -delta)) OR tag:urgent' },
  { q: '(((invoice)))' },
  { q: 'alpha OR bravo charlie OR delta', differsFrom: 'alpha OR (bravo charlie) OR delta' },
  { q: '-(-has:attachment)' },
  { name: 'three groups with a size', q: (c) => `(from:alice OR to:uma) (is:read OR tag:urgent OR has:attachment) -larger:${c.medianSize * 4}` },
  { q: 'alpha or bravo', expect: 'any', differsFrom: 'alpha OR bravo', name: 'lower-case or is a free-text word' },
  { q: '-is:read -is:tagged' },
  { name: 'group with a date', q: (c) => `(invoice OR "weekly report") after:${isoAt(c.b1, 0)}` },
  { q: 'zulu -has:attachment' },
  { q: '(ghost OR vault) -to:ghost' },
];

interface ErrorCase {
  q: string;
  /** Text the message must name (case-insensitive); any one of a list. */
  term: string | string[];
  /** Acceptable 1-based positions. */
  positions: number[];
}

const ERROR_CASES: ErrorCase[] = [
  { q: 'larger:abc', term: 'larger:abc', positions: [1] },
  { q: 'invoice larger:abc', term: 'larger:abc', positions: [9] },
  { q: 'smaller:10x', term: 'smaller:10x', positions: [1] },
  { q: 'alpha larger:k', term: 'larger:k', positions: [7] },
  { q: 'alpha larger:1.5.5', term: 'larger:1.5.5', positions: [7] },
  { q: 'after:yesterdayish', term: 'after:yesterdayish', positions: [1] },
  { q: 'alpha  before:2026-13-01', term: 'before:2026-13-01', positions: [8] },
  { q: 'is:starred', term: 'is:starred', positions: [1] },
  { q: 'alpha IS:Starred', term: 'IS:Starred', positions: [7] },
  { q: 'bravo has:pdf', term: 'has:pdf', positions: [7] },
  { q: '(alpha OR larger:abc)', term: 'larger:abc', positions: [11] },
  { q: '"alpha beta', term: ['"', 'quote'], positions: [1] },
  { q: 'alpha "beta', term: ['"', 'quote'], positions: [7] },
  { q: 'subject:"weekly report', term: ['"', 'quote'], positions: [1, 9] },
  { q: '(alpha OR beta', term: '(', positions: [1] },
  { q: 'alpha (beta (gamma)', term: '(', positions: [7] },
  { q: '-(alpha', term: '(', positions: [2] },
  { q: 'alpha beta)', term: ')', positions: [11] },
  { q: ')alpha', term: ')', positions: [1] },
  { q: 'alpha OR', term: 'OR', positions: [7] },
  { q: 'OR alpha', term: 'OR', positions: [1] },
  { q: 'alpha OR OR beta', term: 'OR', positions: [7, 10] },
  { q: '(alpha OR) beta', term: 'OR', positions: [8] },
  { q: '-', term: '-', positions: [1] },
  { q: 'alpha -', term: '-', positions: [7] },
  { q: 'alpha !', term: '!', positions: [7] },
  { q: 'alpha (-) beta', term: '-', positions: [8] },
];

// ---------------------------------------------------------------------------------------------------------
// Random queries: a tree of atom strings, serialized with the precedence rules, parsed back by the oracle.

type GenNode = { kind: 'atom'; text: string } | { kind: 'and' | 'or'; items: GenNode[] } | { kind: 'not'; item: GenNode };

const RANDOM_TEXT = [...BODY_WORDS, 'invoice', 'weekly', 'report', 'order', 'shipped', 'meeting', 'agenda', 'payment', 'reminder', 'receipt', 'follow-up', 'orbit', 'welcome', 'march', 'april', 'urgent', 'alice', 'stone', 'carol', 'uma', 'victor', 'xavier', 'ghost', 'vault', 'mailer', 'bounce', 'team@corp.example', 'école', 'ΩMEGA', 'straße', 'https://docs.example.com/guide', 'budget', 'or'];
const RANDOM_PHRASES = ['weekly report', 'payment is due', 'order has shipped', 'see you', 'quarterly budget', 'Alice Martin', 'is due', 'Victor Hale', 'report attached'];
const RANDOM_FROM = ['alice', 'Alice Martin', 'bob', 'stone.example', 'carol', 'dave@delta.example', 'billing', 'Acme', 'no-reply', 'mailer', 'bounce', 'relay', 'Ωmega', 'ghost'];
const RANDOM_TO = ['uma', 'victor', 'Victor Hale', 'team@corp', 'wendy', 'corp.example', 'xavier', 'archive', 'cc.example', 'ghost', 'vault', 'users.example', 'cconly', 'Frank Header'];
const RANDOM_SUBJECT = ['invoice', 'weekly report', 'order', 'shipped', 'meeting', 'payment', 'receipt', 'follow-up', 'orbit', 'welcome', 'march', 'april', 'urgent', '(draft)', 'école', 'budget', '#'];
const RANDOM_TAGS = ['urgent', 'Urgent', 'billing', 'team/ops', 'needs review', 'ÉTÉ', 'ci:green', 'nosuchtag'];

function randomCase(rng: Rng, s: string): string {
  // Only where upper-casing round-trips (never ß → SS).
  if (s.toUpperCase().toLowerCase() !== s.toLowerCase()) return s;
  const roll = rng.next();
  return roll < 0.5 ? s : roll < 0.75 ? s.toUpperCase() : s.charAt(0).toUpperCase() + s.slice(1);
}

function randomValue(rng: Rng, value: string): string {
  return /[\s()"]/.test(value) || rng.chance(0.2) ? `"${value}"` : value;
}

function randomAtom(rng: Rng, c: Ctx): string {
  const op = (name: string) => randomCase(rng, name);
  const sizes = c.recs.map((r) => r.size);
  switch (rng.int(0, 10)) {
    case 0:
    case 1: {
      const word = randomCase(rng, rng.pick(RANDOM_TEXT));
      // An upper-case OR would be the operator; the free-text word stays lower case.
      return randomValue(rng, word === 'OR' ? 'or' : word);
    }
    case 2:
      return `"${randomCase(rng, rng.pick(RANDOM_PHRASES)).replace(/ /g, () => (rng.chance(0.2) ? '  ' : ' '))}"`;
    case 3:
      return `${op('from')}:${randomValue(rng, rng.pick(RANDOM_FROM))}`;
    case 4:
      return `${op('to')}:${randomValue(rng, rng.pick(RANDOM_TO))}`;
    case 5:
      return `${op('subject')}:${randomValue(rng, rng.pick(RANDOM_SUBJECT))}`;
    case 6:
      return rng.chance(0.5) ? `${op('is')}:${randomCase(rng, rng.pick(['read', 'unread', 'tagged']))}` : `${op('has')}:${randomCase(rng, rng.pick(['attachment', 'attachments']))}`;
    case 7:
      return `${op('tag')}:${randomValue(rng, rng.pick(RANDOM_TAGS))}`;
    case 8: {
      const bytes = rng.pick(sizes) + rng.int(-3, 3);
      const unit = rng.pick(['', 'k', 'K', 'kb', 'KB', 'm', 'Mb']);
      const divisor = /k/i.test(unit) ? 1024 : /m/i.test(unit) ? 1024 ** 2 : 1;
      const amount = divisor === 1 ? String(bytes) : (bytes / divisor).toFixed(divisor === 1024 ? 2 : 6);
      return `${op(rng.pick(['larger', 'smaller']))}:${amount}${unit}`;
    }
    default: {
      const roll = rng.next();
      let value: string;
      if (roll < 0.15) value = c.firstDay;
      else {
        // Second precision only in random queries; fractional seconds are probed by the hand-written cases.
        const at = roll < 0.55 ? rng.pick([c.b1, c.b2]) : Math.floor(rng.pick(c.recs).receivedMs / 1000) * 1000 + rng.pick([0, 1000]);
        value = isoAt(at, rng.pick([0, 0, 120, -330, 60, -480]));
      }
      return `${op(rng.pick(['after', 'before']))}:${value}`;
    }
  }
}

function randomTree(rng: Rng, c: Ctx, depth: number): GenNode {
  if (depth >= 3 || rng.chance(0.45)) return { kind: 'atom', text: randomAtom(rng, c) };
  const kind = rng.pick(['and', 'or', 'or', 'not'] as const);
  if (kind === 'not') return { kind, item: randomTree(rng, c, depth + 1) };
  const items: GenNode[] = [];
  for (let n = rng.int(2, 3); n > 0; n--) items.push(randomTree(rng, c, depth + 1));
  return { kind, items };
}

function serialize(rng: Rng, node: GenNode, parent: 'top' | 'and' | 'or' | 'not'): string {
  const paren = (s: string) => `(${s})`;
  switch (node.kind) {
    case 'atom':
      return rng.chance(0.1) ? paren(node.text) : node.text;
    case 'not': {
      const inner = serialize(rng, node.item, 'not');
      const wrapped = node.item.kind === 'atom' || inner.startsWith('(') ? inner : paren(inner);
      return `${rng.pick(['-', '!'])}${wrapped}`;
    }
    case 'and': {
      const s = node.items.map((item) => serialize(rng, item, 'and')).join(' ');
      return parent === 'top' || (parent === 'and' && rng.chance(0.5)) ? s : paren(s);
    }
    case 'or': {
      const s = node.items.map((item) => serialize(rng, item, 'or')).join(' OR ');
      return parent === 'not' || rng.chance(0.25) ? paren(s) : s;
    }
  }
}

function evalGen(r: Rec, node: GenNode): boolean {
  switch (node.kind) {
    case 'atom':
      return matches(r, parseQuery(node.text));
    case 'not':
      return !evalGen(r, node.item);
    case 'and':
      return node.items.every((item) => evalGen(r, item));
    case 'or':
      return node.items.some((item) => evalGen(r, item));
  }
}

describe('search: q and the list filters against an independent oracle', function () {
  this.timeout(120_000);

  let server: StartedServer;
  let api: ApiClient;
  let inboxId: string;
  let ctx: Ctx;
  const labelOf = new Map<string, string>();

  const listPath = (filters: ListFilters & { limit?: number; cursor?: string }) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value !== undefined) params.set(key, String(value));
    return `/v1/inboxes/${inboxId}/messages?${params}`;
  };

  async function searchIds(filters: ListFilters): Promise<string[]> {
    const response = await api.get<Envelope<MessageSummaryJson[]>>(listPath({ ...filters, limit: 200 }));
    const data = expectOk<MessageSummaryJson[]>(response, 200, `search ${JSON.stringify(filters)}`);
    assert.equal(response.json.next_cursor, undefined, 'one page of 200 holds every match');
    return data.map((m) => m.id);
  }

  const show = (ids: string[]) => ids.map((id) => `${id}(${labelOf.get(id) ?? '?'})`).join(', ');

  /** Null when equal, else a description of the difference. */
  function difference(actual: string[], expected: string[]): string | null {
    if (actual.length === expected.length && actual.every((id, i) => id === expected[i])) return null;
    const missing = expected.filter((id) => !actual.includes(id));
    const extra = actual.filter((id) => !expected.includes(id));
    return [
      `expected ${expected.length}, got ${actual.length}`,
      `missing: [${show(missing)}]`,
      `extra: [${show(extra)}]`,
      missing.length === 0 && extra.length === 0 ? `same set, different order:\n  expected ${show(expected)}\n  actual   ${show(actual)}` : '',
    ]
      .filter(Boolean)
      .join('\n  ');
  }

  async function assertSearch(filters: ListFilters): Promise<string[]> {
    const expected = oracleIds(ctx.recs, filters);
    const actual = await searchIds(filters);
    const diff = difference(actual, expected);
    assert.equal(diff, null, `${JSON.stringify(filters)} (seed ${SEED}):\n  ${diff}`);
    return expected;
  }

  before(async function () {
    server = await startServer();
    assert.ok(server.defaultKey, 'the first start prints the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    const inbox = await createInbox(api, `search-${process.pid}`);
    inboxId = inbox.id;
    const credentials = credentialsOf(inbox);

    const rng = new Rng(SEED);
    const specs = specialMessages();
    const randomCount = 60 - specs.length;
    for (let i = 0; i < randomCount; i++) specs.push(randomMessage(rng, i));
    rng.shuffle(specs);

    // Three batches separated by whole-second boundaries, so after:/before: have known splits.
    const sent: { spec: MessageSpec; id: string; batch: number; recipients: string[] }[] = [];
    const boundaries: number[] = [];
    const transport = smtpTransport(credentials, { pool: true });
    try {
      for (let i = 0; i < specs.length; i++) {
        const batch = Math.floor((i * 3) / specs.length);
        if (batch > boundaries.length) {
          const boundary = Math.floor(Date.now() / 1000) * 1000 + 1000;
          boundaries.push(boundary);
          await waitForClockPast(boundary + 2);
        }
        const spec = specs[i]!;
        const recipients = spec.envelopeTo ?? [...spec.to, ...spec.cc].map((p) => p.address).concat(spec.bcc);
        const info = await transport.sendMail({
          from: spec.from,
          to: spec.to,
          ...(spec.cc.length > 0 ? { cc: spec.cc } : {}),
          subject: spec.subject,
          ...(spec.text !== undefined ? { text: spec.text } : {}),
          ...(spec.html !== undefined ? { html: spec.html } : {}),
          ...(spec.replyTo ? { replyTo: spec.replyTo } : {}),
          ...(spec.headers ? { headers: spec.headers } : {}),
          attachments: spec.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: 'text/plain' })),
          envelope: { from: spec.envelopeFrom, to: recipients },
        });
        const id = storedId(String(info.response));
        sent.push({ spec, id, batch, recipients });
        labelOf.set(id, spec.label);
      }
    } finally {
      transport.close();
    }
    assert.equal(boundaries.length, 2);

    // Read state and tags through the API.
    const tagged = new Map<string, string[]>();
    const read = new Set<string>();
    sent.forEach(({ id }, i) => {
      const tags: string[] = [];
      if (i % 3 === 0) tags.push(TAGS[(i / 3) % TAGS.length]!);
      if (i % 7 === 0) tags.push(TAGS[(i + 2) % TAGS.length]!);
      if (tags.length > 0) tagged.set(id, [...new Set(tags.map((t) => t.toLowerCase()))]);
      if (rng.chance(0.4)) read.add(id);
    });
    for (const id of read) expectOk(await api.request('PUT', `/v1/messages/${id}/read`), 200, 'mark read');
    for (const [id, tags] of tagged) {
      for (const tag of tags) expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: rng.chance(0.5) ? tag.toUpperCase() : tag }), 200, 'add tag');
    }

    // Wait until every message is listed (with its state), then take received_at and size from the API.
    let summaries: MessageSummaryJson[] = [];
    await pollUntil(async () => {
      summaries = expectOk<MessageSummaryJson[]>(await api.get(listPath({ limit: 200 })), 200, 'list all');
      return summaries.length === sent.length && summaries.every((s) => s.read === read.has(s.id) && s.tags.length === (tagged.get(s.id)?.length ?? 0));
    }, 20_000, () => `every message to be listed with its state: ${summaries.length}/${sent.length} listed`);
    const byId = new Map(summaries.map((s) => [s.id, s]));
    const recs: Rec[] = sent.map(({ spec, id, batch, recipients }) => {
      const s = byId.get(id);
      assert.ok(s, `message ${id} (${spec.label}) is not listed`);
      return {
        spec,
        id,
        label: spec.label,
        batch,
        recipients,
        ...(spec.html !== undefined ? { htmlText: htmlReadableText(spec.html) } : {}),
        receivedAt: s.received_at,
        receivedMs: Date.parse(s.received_at),
        size: s.size,
        attachmentCount: s.attachment_count,
        read: s.read,
        tags: s.tags,
      };
    });
    const sizes = recs.map((r) => r.size).sort((a, b) => a - b);
    const sizeCounts = new Map<number, number>();
    for (const size of sizes) sizeCounts.set(size, (sizeCounts.get(size) ?? 0) + 1);
    // The edge message: middle batch, a size no other message has, strictly between the smallest and largest
    // sizes (so boundary queries split the corpus), milliseconds in its received_at; nearest the median size.
    const median = sizes[Math.floor(sizes.length / 2)]!;
    const middle = recs
      .filter((r) => r.batch === 1 && sizeCounts.get(r.size) === 1 && r.size > sizes[0]! && r.size < sizes.at(-1)! && r.receivedMs % 1000 !== 0)
      .sort((x, y) => Math.abs(x.size - median) - Math.abs(y.size - median));
    ctx = {
      recs,
      b1: boundaries[0]!,
      b2: boundaries[1]!,
      firstDay: dayOf(Math.min(...recs.map((r) => r.receivedMs))),
      medianSize: median,
      edge: middle[0] ?? recs[30]!,
    };
  });

  after(async () => {
    await server?.stop();
  });

  describe('the corpus', () => {
    it('stored what was sent, as the oracle assumes (headers, envelope, bodies, batches, state)', async () => {
      const problems: string[] = [];
      for (const r of ctx.recs) {
        const d = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${r.id}`), 200, `get ${r.label}`);
        const note = (what: string, got: unknown, want: unknown) => problems.push(`${r.label} ${r.id} ${what}: got ${JSON.stringify(got)}, sent ${JSON.stringify(want)}`);
        if (d.subject !== r.spec.subject) note('subject', d.subject, r.spec.subject);
        if (d.envelope_from.toLowerCase() !== r.spec.envelopeFrom.toLowerCase()) note('envelope_from', d.envelope_from, r.spec.envelopeFrom);
        if (JSON.stringify(d.recipients.map((x) => x.toLowerCase()).sort()) !== JSON.stringify(r.recipients.map((x) => x.toLowerCase()).sort())) note('recipients', d.recipients, r.recipients);
        for (const part of [r.spec.from.name, r.spec.from.address]) if (part && !d.from.includes(part)) note('from', d.from, part);
        for (const p of r.spec.to) for (const part of [p.name, p.address]) if (part && !d.to.includes(part)) note('to', d.to, part);
        if (d.attachment_count !== r.spec.attachments.length) note('attachment_count', d.attachment_count, r.spec.attachments.length);
        const ws = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
        if (r.spec.text !== undefined && ws(d.text) !== ws(r.spec.text)) note('text', d.text, r.spec.text);
        if (r.spec.html !== undefined && ws(d.html) !== ws(r.spec.html)) note('html', d.html, r.spec.html);
        const inBatch = r.batch === 0 ? r.receivedMs < ctx.b1 : r.batch === 1 ? r.receivedMs >= ctx.b1 && r.receivedMs < ctx.b2 : r.receivedMs >= ctx.b2;
        if (!inBatch) note('received_at batch', r.receivedAt, r.batch);
      }
      assert.deepEqual(problems, []);
      assert.ok(ctx.recs.some((r) => r.read) && ctx.recs.some((r) => !r.read), 'both read and unread messages');
      assert.ok(ctx.recs.some((r) => r.attachmentCount > 0) && ctx.recs.some((r) => r.attachmentCount === 0), 'with and without attachments');
      assert.ok(new Set(ctx.recs.flatMap((r) => r.tags)).size === TAGS.length, 'every tag is used');
    });

    it('an unfiltered list is newest first and equals the oracle for an empty filter set', async () => {
      await assertSearch({});
    });
  });

  describe('hand-written queries', () => {
    for (const c of CASES) {
      const title = c.name ? `${c.name}${typeof c.q === 'string' ? `: ${c.q}` : ''}` : c.q;
      it(String(title), async () => {
        const q = typeof c.q === 'string' ? c.q : c.q(ctx);
        const expected = await assertSearch({ q });
        const n = expected.length;
        const total = ctx.recs.length;
        const expectation = c.expect ?? 'some';
        if (expectation === 'some') assert.ok(n > 0 && n < total, `query ${q} is vacuous in this corpus (${n}/${total}): the case proves nothing`);
        if (expectation === 'none') assert.equal(n, 0, `oracle: ${q} should match nothing`);
        if (expectation === 'all') assert.equal(n, total, `oracle: ${q} should match everything`);
        if (c.differsFrom !== undefined) {
          const other = typeof c.differsFrom === 'string' ? c.differsFrom : c.differsFrom(ctx);
          assert.notDeepEqual(oracleIds(ctx.recs, { q: other }), expected, `the corpus does not tell ${q} from ${other}`);
        }
      });
    }

    it('larger:/smaller: accept a plain trailing b (bytes): larger:<S-1>b and smaller:<S+1>B', async () => {
      await assertSearch({ q: `larger:${ctx.edge.size - 1}b` });
      await assertSearch({ q: `smaller:${ctx.edge.size + 1}B` });
      assert.ok(oracleIds(ctx.recs, { q: `larger:${ctx.edge.size - 1}b` }).includes(ctx.edge.id));
    });
  });

  describe('seeded random queries', () => {
    it('180 random combinations match the oracle exactly', async () => {
      const rng = new Rng(SEED ^ 0x5eed);
      const failures: string[] = [];
      let informative = 0;
      const total = 180;
      for (let i = 0; i < total; i++) {
        const tree: GenNode = { kind: 'and', items: Array.from({ length: rng.int(1, 3) }, () => randomTree(rng, ctx, 0)) };
        const q = serialize(rng, tree, 'top');
        const expected = oracleIds(ctx.recs, { q });
        // Self-check of the oracle: the parsed string means what the generated tree means.
        const direct = newestFirst(ctx.recs.filter((r) => evalGen(r, tree))).map((r) => r.id);
        assert.deepEqual(expected, direct, `oracle parser disagrees with the generated tree for ${q}`);
        if (expected.length > 0 && expected.length < ctx.recs.length) informative++;
        const diff = difference(await searchIds({ q }), expected);
        if (diff) failures.push(`q=${JSON.stringify(q)}\n  ${diff}`);
      }
      assert.ok(informative >= total * 0.4, `only ${informative}/${total} random queries split the corpus`);
      assert.equal(failures.length, 0, `${failures.length}/${total} random queries differ (seed ${SEED}):\n${failures.slice(0, 12).join('\n')}`);
    });
  });

  describe('list parameters from, to, subject, since', () => {
    const fixed: { name: string; filters: (c: Ctx) => ListFilters; expect?: 'some' | 'none' }[] = [
      { name: 'from=alice', filters: () => ({ from: 'alice' }) },
      { name: 'from=mailer.example (envelope sender)', filters: () => ({ from: 'mailer.example' }) },
      { name: 'from=ALICE MARTIN (a space, literal, case-insensitive)', filters: () => ({ from: 'ALICE MARTIN' }) },
      { name: 'from=alice OR bob is literal text, not a query', filters: () => ({ from: 'alice OR bob' }), expect: 'none' },
      { name: 'to=ghost (Bcc)', filters: () => ({ to: 'ghost' }) },
      { name: 'to=cconly (Cc header)', filters: () => ({ to: 'cconly' }) },
      { name: 'to=Victor Hale', filters: () => ({ to: 'Victor Hale' }) },
      { name: 'subject=weekly report', filters: () => ({ subject: 'weekly report' }) },
      { name: 'subject=(draft) literal', filters: () => ({ subject: '(draft)' }) },
      { name: 'subject=ÉCOLE', filters: () => ({ subject: 'ÉCOLE' }) },
      { name: 'subject=-invoice is literal', filters: () => ({ subject: '-invoice' }), expect: 'none' },
      { name: 'since=boundary Z', filters: (c) => ({ since: isoAt(c.b1, 0) }) },
      { name: 'since=boundary +02:00', filters: (c) => ({ since: isoAt(c.b2, 120) }) },
      { name: 'since=exact received_at (at or after)', filters: (c) => ({ since: c.edge.receivedAt }) },
      { name: 'from + q', filters: () => ({ from: 'alice', q: 'is:unread' }) },
      { name: 'to + from + q group', filters: () => ({ to: 'users', from: 'bob', q: '(alpha OR bravo OR charlie)' }) },
      { name: 'subject + since + negated q', filters: (c) => ({ subject: 'e', since: isoAt(c.b1, -330), q: '-has:attachment' }) },
      { name: 'all four + q', filters: (c) => ({ from: 'example', to: 'example', subject: 'e', since: isoAt(c.b1, 0), q: 'is:read OR is:tagged' }) },
    ];
    for (const f of fixed) {
      it(f.name, async () => {
        const expected = await assertSearch(f.filters(ctx));
        if ((f.expect ?? 'some') === 'some') assert.ok(expected.length > 0 && expected.length < ctx.recs.length, `vacuous: ${expected.length}`);
        else assert.equal(expected.length, 0);
      });
    }

    it('40 random combinations of the parameters with and without q', async () => {
      const rng = new Rng(SEED ^ 0xf11e);
      const failures: string[] = [];
      for (let i = 0; i < 40; i++) {
        const filters: ListFilters = {};
        if (rng.chance(0.5)) filters.from = rng.pick(RANDOM_FROM);
        if (rng.chance(0.5)) filters.to = rng.pick(RANDOM_TO);
        if (rng.chance(0.4)) filters.subject = rng.pick(RANDOM_SUBJECT);
        if (rng.chance(0.4)) filters.since = isoAt(rng.pick([ctx.b1, ctx.b2, Math.floor(rng.pick(ctx.recs).receivedMs / 1000) * 1000]), rng.pick([0, 120, -330]));
        if (rng.chance(0.5) || Object.keys(filters).length === 0) filters.q = serialize(rng, randomTree(rng, ctx, 1), 'top');
        const diff = difference(await searchIds(filters), oracleIds(ctx.recs, filters));
        if (diff) failures.push(`${JSON.stringify(filters)}\n  ${diff}`);
      }
      assert.equal(failures.length, 0, `${failures.length}/40 differ (seed ${SEED}):\n${failures.slice(0, 10).join('\n')}`);
    });
  });

  describe('invalid queries', () => {
    for (const e of ERROR_CASES) {
      const terms = typeof e.term === 'string' ? [e.term] : e.term;
      it(`400 invalid_query naming ${terms.join(' or ')} at ${e.positions.join(' or ')}: ${e.q}`, async () => {
        // The oracle agrees that the query is invalid, at that place.
        assert.throws(
          () => parseQuery(e.q),
          (error: unknown) => error instanceof OracleQueryError && e.positions.includes(error.position),
          `oracle accepts ${e.q}`,
        );
        const message = expectError(await api.get(listPath({ q: e.q })), 400, 'invalid_query', `q=${e.q}`);
        assert.ok(terms.some((t) => message.toLowerCase().includes(t.toLowerCase())), `message does not name ${terms.join(' or ')}: ${message}`);
        assert.ok(
          e.positions.some((p) => new RegExp(`(^|\\D)${p}(\\D|$)`).test(message)),
          `message does not give position ${e.positions.join(' or ')}: ${message}`,
        );
      });
    }

    it('an invalid q is refused even when the other filters would match nothing', async () => {
      expectError(await api.get(listPath({ q: 'is:starred', from: 'zzzznotthere' })), 400, 'invalid_query', 'q with from');
    });

    it('refuses a q past the text limits with 400 invalid_query saying which: terms, characters, short terms', async () => {
      // The shape that held the event loop: hundreds of negated two-letter terms, well under 2,000 characters.
      const negatedPairs = Array.from({ length: 500 }, (_, i) => `-z${String.fromCharCode(97 + (i % 26))}`).join(' ').slice(0, 1999);
      const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
      const cases: [Record<string, string>, RegExp][] = [
        [{ q: negatedPairs }, /text terms; at most 16 per query/],
        [{ q: words(17) }, /17 text terms; at most 16 per query/],
        [{ q: words(16), subject: 'one more' }, /17 text terms/],
        [{ q: `${'x'.repeat(300)} ${'y'.repeat(300)}` }, /hold 600 characters; at most 512 per query/],
        [{ q: 'ab cd ef gh ij' }, /5 text terms of one or two characters; at most 4 per query/],
      ];
      for (const [params, mention] of cases) {
        const message = expectError(await api.get(listPath(params)), 400, 'invalid_query', JSON.stringify(params).slice(0, 80));
        assert.match(message, mention);
      }
      expectOk(await api.get(listPath({ q: words(16) })));
    });
  });

  describe('paging with a query', () => {
    async function walk(filters: ListFilters): Promise<{ ids: string[]; pages: number }> {
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const response = await api.get<Envelope<MessageSummaryJson[]>>(listPath({ ...filters, limit: 5, ...(cursor ? { cursor } : {}) }));
        const data = expectOk<MessageSummaryJson[]>(response, 200, `page ${pages + 1} of ${JSON.stringify(filters)}`);
        assert.ok(data.length <= 5, 'a page holds at most limit items');
        cursor = response.json.next_cursor;
        if (cursor) assert.equal(data.length, 5, 'only the last page is short');
        ids.push(...data.map((m) => m.id));
        assert.ok(++pages <= 30, 'paging does not end');
      } while (cursor);
      return { ids, pages };
    }

    for (const filters of [{ q: '-from:alice' }, { q: '(alpha OR bravo OR zulu) -is:read' }, { q: 'is:unread OR is:tagged', to: 'example' }] as ListFilters[]) {
      it(`limit 5 walks every match exactly once: ${JSON.stringify(filters)}`, async () => {
        const expected = oracleIds(ctx.recs, filters);
        assert.ok(expected.length >= 11, `the query should span at least three pages (${expected.length})`);
        const { ids, pages } = await walk(filters);
        assert.equal(new Set(ids).size, ids.length, 'a message appears twice');
        const diff = difference(ids, expected);
        assert.equal(diff, null, `${JSON.stringify(filters)} paged:\n  ${diff}`);
        assert.equal(pages, Math.ceil(expected.length / 5));
      });
    }

    it('a cursor used with a different q (or without it, or with another filter) answers 400 invalid_cursor', async () => {
      const first = await api.get<Envelope<MessageSummaryJson[]>>(listPath({ q: '-from:alice', limit: 5 }));
      expectOk(first, 200, 'first page');
      const cursor = first.json.next_cursor;
      assert.ok(cursor, 'the first page has a successor');
      expectError(await api.get(listPath({ q: '-from:bob', limit: 5, cursor })), 400, 'invalid_cursor', 'different q');
      expectError(await api.get(listPath({ limit: 5, cursor })), 400, 'invalid_cursor', 'no q');
      expectError(await api.get(listPath({ q: '-from:alice', subject: 'e', limit: 5, cursor })), 400, 'invalid_cursor', 'extra filter');
      const second = await api.get<Envelope<MessageSummaryJson[]>>(listPath({ q: '-from:alice', limit: 5, cursor }));
      const data = expectOk<MessageSummaryJson[]>(second, 200, 'same q');
      assert.deepEqual(data.map((m) => m.id), oracleIds(ctx.recs, { q: '-from:alice' }).slice(5, 10));
    });
  });

  // GET /v1/inboxes/{id}/messages/count takes the list's search parameters; every answer is checked against
  // openapi.yaml by the ApiClient (MessageCount, additionalProperties false).
  describe('counting what a search matches (countMessages)', () => {
    const countPath = (filters: Record<string, string | undefined>, id = inboxId) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(filters)) if (value !== undefined) params.set(key, value);
      return `/v1/inboxes/${id}/messages/count?${params}`;
    };

    async function countOf(filters: ListFilters, client = api): Promise<MessageCountJson> {
      return expectOk<MessageCountJson>(await client.get(countPath({ ...filters })), 200, `count ${JSON.stringify(filters)}`);
    }

    /** Every summary the list returns for the filters, walked page by page with its cursor. */
    async function paged(filters: ListFilters): Promise<MessageSummaryJson[]> {
      const all: MessageSummaryJson[] = [];
      let cursor: string | undefined;
      do {
        const response = await api.get<Envelope<MessageSummaryJson[]>>(listPath({ ...filters, limit: 7, ...(cursor ? { cursor } : {}) }));
        all.push(...expectOk<MessageSummaryJson[]>(response, 200, `page of ${JSON.stringify(filters)}`));
        cursor = response.json.next_cursor;
        assert.ok(all.length <= ctx.recs.length, 'paging does not end');
      } while (cursor);
      return all;
    }

    const unreadIn = (summaries: MessageSummaryJson[]) => summaries.filter((m) => !m.read).length;

    it('without a search counts the inbox: its message_count and unread_count', async () => {
      const inbox = expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxId}`), 200, 'the inbox');
      assert.deepEqual(await countOf({}), { messages: inbox.message_count, unread: inbox.unread_count });
      assert.deepEqual(await countOf({}), { messages: ctx.recs.length, unread: ctx.recs.filter((r) => !r.read).length });
    });

    const searches: { name: string; filters: (c: Ctx) => ListFilters }[] = [
      { name: 'q', filters: () => ({ q: '-from:alice' }) },
      { name: 'q with OR and read state', filters: () => ({ q: '(alpha OR bravo OR zulu) -is:read' }) },
      { name: 'from', filters: () => ({ from: 'alice' }) },
      { name: 'q + since', filters: (c) => ({ q: 'is:unread OR is:tagged', since: isoAt(c.b1, 0) }) },
      { name: 'q + since (+02:00) + subject', filters: (c) => ({ q: '-has:attachment', since: isoAt(c.b1, 120), subject: 'e' }) },
    ];
    for (const search of searches) {
      it(`counts exactly what paging the list returns, and the unread among them: ${search.name}`, async () => {
        const filters = search.filters(ctx);
        const listed = await paged(filters);
        const expected = oracleIds(ctx.recs, filters);
        assert.ok(expected.length > 0 && expected.length < ctx.recs.length, `vacuous: ${expected.length} of ${ctx.recs.length}`);
        assert.deepEqual(listed.map((m) => m.id), expected, 'the list agrees with the oracle');
        const unread = unreadIn(listed);
        assert.ok(unread > 0, `no unread match: ${JSON.stringify(filters)}`);
        assert.deepEqual(await countOf(filters), { messages: listed.length, unread });
      });
    }

    it('counts nothing, and no unread, when nothing matches', async () => {
      assert.deepEqual(await countOf({ q: 'zzqxnothingmatchesthis' }), { messages: 0, unread: 0 });
      assert.deepEqual(await countOf({ from: 'alice', q: '-from:alice' }), { messages: 0, unread: 0 });
    });

    it('counts a message as read once it is marked read, and as unread again once it is marked unread', async () => {
      const target = ctx.recs.find((r) => !r.read && r.spec.from.address.includes('alice')) ?? ctx.recs.find((r) => !r.read);
      assert.ok(target, 'the corpus has an unread message');
      const all = await countOf({});
      const fromAlice = await countOf({ from: target.spec.from.address });
      const unread = await countOf({ q: 'is:unread' });
      assert.deepEqual(unread, { messages: all.unread, unread: all.unread });
      expectOk(await api.request('PUT', `/v1/messages/${target.id}/read`), 200, 'mark read');
      try {
        assert.deepEqual(await countOf({}), { messages: all.messages, unread: all.unread - 1 });
        assert.deepEqual(await countOf({ from: target.spec.from.address }), { messages: fromAlice.messages, unread: fromAlice.unread - 1 });
        assert.deepEqual(await countOf({ q: 'is:unread' }), { messages: all.unread - 1, unread: all.unread - 1 });
        assert.deepEqual(await countOf({ q: 'is:read' }), { messages: all.messages - all.unread + 1, unread: 0 });
      } finally {
        expectOk(await api.request('DELETE', `/v1/messages/${target.id}/read`), 200, 'mark unread again');
      }
      assert.deepEqual(await countOf({}), all);
    });

    it('refuses a bad search with 400 and the code the list gives for it, and takes no limit or cursor', async () => {
      const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
      const bad: [Record<string, string>, string][] = [
        [{ q: 'is:starred' }, 'invalid_query'],
        [{ q: '(alpha OR' }, 'invalid_query'],
        [{ q: 'larger:abc', from: 'alice' }, 'invalid_query'],
        [{ q: words(17) }, 'invalid_query'],
        [{ since: 'yesterday' }, 'invalid_request'],
        [{ from: '' }, 'invalid_request'],
        [{ subject: ' ' }, 'invalid_request'],
      ];
      for (const [params, code] of bad) {
        const what = JSON.stringify(params).slice(0, 60);
        expectError(await api.get(listPath(params)), 400, code, `list ${what}`);
        expectError(await api.get(countPath(params)), 400, code, `count ${what}`);
      }
      expectError(await api.get(countPath({ limit: '5' })), 400, 'invalid_request', 'count with limit');
      expectError(await api.get(countPath({ cursor: 'abc' })), 400, 'invalid_request', 'count with cursor');
    });

    it('answers 404 not_found for an unknown inbox and for another workspace\'s inbox, both ways', async () => {
      expectError(await api.get(countPath({}, 'inb_doesnotexist')), 404, 'not_found', 'unknown inbox');
      expectError(await api.get(countPath({ q: 'alpha' }, 'inb_doesnotexist')), 404, 'not_found', 'unknown inbox with a search');
      const other = api.withKey(createWorkspace(server.dataDir, uniqueName('count-other')).key.key);
      const otherInbox = await createInbox(other);
      expectError(await other.get(countPath({}, inboxId)), 404, 'not_found', 'another workspace counts this inbox');
      expectError(await api.get(countPath({}, otherInbox.id)), 404, 'not_found', 'this workspace counts another\'s inbox');
      assert.deepEqual(expectOk<MessageCountJson>(await other.get(countPath({}, otherInbox.id)), 200, 'its own, empty inbox'), { messages: 0, unread: 0 });
    });
  });
});
