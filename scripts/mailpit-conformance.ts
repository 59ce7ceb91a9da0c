// Sends the same mail and the same Mailpit API requests to Mailpit v1.33.1 and to this service, and compares each
// answer's shape: status code, media type and, for JSON, every field path with its JSON type (an array by its
// elements' shape), never the values. A difference mailpit-api.yaml documents is printed as "documented"; any other
// as "UNDOCUMENTED", which makes the exit code 1 (2 when the run itself fails). Run `npm run --silent conformance:mailpit` (embedded profile;
// SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile).
import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import sharp from 'sharp';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../src/project-root.js';
import { ApiClient } from '../test/support/api-client.js';
import { createInbox } from '../test/support/inboxes.js';
import { testProfile } from '../test/support/profile.js';
import { startServer, type StartedServer } from '../test/support/server.js';
import { credentialsOf, smtpTransport } from '../test/support/smtp.js';
import { ensureMailpit, MAILPIT_VERSION, startMailpit, type Mailpit } from './support/mailpit.js';
import { removeScratchData } from '../test/support/scratch-data.js';

const progress = (line: string) => process.stderr.write(`[conformance:mailpit] ${line}\n`);

// ---------- the mail both servers are sent ----------

/** A message of the set, named by the label requests use to find its ID on each server. */
interface Sample {
  label: string;
  mail: Mail.Options;
}

async function samples(): Promise<Sample[]> {
  const image = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const from = '"Shop" <shop@conformance.test>';
  const to = '"Ann" <ann@conformance.test>';
  return [
    { label: 'plain', mail: { from, to, subject: 'Plain text only', text: 'Just text, no HTML.' } },
    {
      label: 'html',
      mail: {
        from, to, cc: 'cc@conformance.test', bcc: 'blind@conformance.test', replyTo: 'help@conformance.test',
        subject: 'HTML newsletter',
        text: 'Read it at http://127.0.0.1:9/news',
        // A link to a closed loopback port: both link checks answer at once, with no internet needed.
        html: '<html><body><p style="color: red; display: flex">Read <a href="http://127.0.0.1:9/news">the news</a>.</p></body></html>',
        headers: { 'List-Unsubscribe': '<mailto:leave@conformance.test>, <http://127.0.0.1:9/leave>' },
      },
    },
    {
      label: 'attachments',
      mail: {
        from, to, subject: 'Report attached', text: 'Two files attached.',
        attachments: [
          { filename: 'report.pdf', content: Buffer.from('%PDF-1.4 not really a pdf'), contentType: 'application/pdf' },
          { filename: 'chart.png', content: image, contentType: 'image/png' },
        ],
      },
    },
    {
      label: 'inline',
      mail: {
        from, to, subject: 'Inline logo', text: 'Logo inside.',
        html: '<p>Our logo: <img src="cid:logo@conformance.test" alt="logo"></p>',
        attachments: [{ filename: 'logo.png', content: image, contentType: 'image/png', cid: 'logo@conformance.test' }],
      },
    },
    { label: 'tagged', mail: { from, to, subject: 'Tagged by header', text: 'Tagged.', headers: { 'X-Tags': 'Orders, urgent' } } },
    { label: 'code', mail: { from: '"Auth" <auth@conformance.test>', to, subject: 'Your sign-in code', text: 'Your one-time code is 482913. It expires in 10 minutes.' } },
  ];
}

// ---------- the two servers behind one shape ----------

interface Target {
  name: 'mailpit' | 'ours';
  url: string;
  headers: Record<string, string>;
  /** Each sample's ID on this server, by label. */
  ids: Map<string, string>;
  /** The PartIDs of the attachments message's files on this server, by file name. */
  parts: Map<string, string>;
}

async function discover(target: Target, labelsBySubject: Map<string, string>): Promise<void> {
  const list = (await (await fetch(`${target.url}/api/v1/messages`, { headers: target.headers })).json()) as { messages: { ID: string; Subject: string }[] };
  for (const message of list.messages) {
    const label = labelsBySubject.get(message.Subject);
    if (label !== undefined) target.ids.set(label, message.ID);
  }
  if (target.ids.size !== labelsBySubject.size) throw new Error(`${target.name} holds ${target.ids.size} of the ${labelsBySubject.size} messages sent`);
  const detail = (await (await fetch(`${target.url}/api/v1/message/${target.ids.get('attachments')}`, { headers: target.headers })).json()) as { Attachments: { PartID: string; FileName: string }[] };
  for (const attachment of detail.Attachments) target.parts.set(attachment.FileName, attachment.PartID);
}

// ---------- the requests ----------

interface Probe {
  /** How the report names it: method, route and what is special about it. */
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  path: (target: Target) => string;
  /** A JSON body, or a string sent as it is (bad JSON). */
  body?: (target: Target) => unknown;
  /** Field paths of objects whose keys are data (header names, tag names), compared by their values' shape only. */
  maps?: string[];
}

const id = (label: string) => (target: Target) => target.ids.get(label)!;
const part = (file: string) => (target: Target) => target.parts.get(file)!;
const BAD_JSON = '{"IDs": [';

const PROBES: Probe[] = [
  { name: 'GET /api/v1/info', method: 'GET', path: () => '/api/v1/info', maps: ['Tags'] },
  { name: 'GET /api/v1/webui', method: 'GET', path: () => '/api/v1/webui' },
  { name: 'GET /api/v1/messages', method: 'GET', path: () => '/api/v1/messages' },
  { name: 'GET /api/v1/messages (start, limit)', method: 'GET', path: () => '/api/v1/messages?start=1&limit=2' },
  { name: 'GET /api/v1/messages (unreadable start, limit)', method: 'GET', path: () => '/api/v1/messages?start=abc&limit=-1' },
  { name: 'GET /api/v1/search', method: 'GET', path: () => `/api/v1/search?query=${encodeURIComponent('subject:"sign-in code"')}` },
  { name: 'GET /api/v1/search (operators, tz)', method: 'GET', path: () => `/api/v1/search?query=${encodeURIComponent('from:shop@conformance.test has:attachment after:2020-01-01')}&tz=Europe/Berlin` },
  { name: 'GET /api/v1/search (no matches)', method: 'GET', path: () => '/api/v1/search?query=zanzibarquartz' },
  { name: 'GET /api/v1/search (no query)', method: 'GET', path: () => '/api/v1/search' },
  { name: 'GET /api/v1/search (blank query)', method: 'GET', path: () => '/api/v1/search?query=%20' },
  { name: 'GET /api/v1/search (unreadable terms)', method: 'GET', path: () => `/api/v1/search?query=${encodeURIComponent('before:notadate larger:lots subject:report')}` },
  { name: 'GET /api/v1/search (unknown tz)', method: 'GET', path: () => '/api/v1/search?query=after:2020-01-01&tz=Nowhere/Atlantis' },
  { name: 'GET /api/v1/message/{ID} (plain)', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}` },
  { name: 'GET /api/v1/message/{ID} (HTML)', method: 'GET', path: (t) => `/api/v1/message/${id('html')(t)}` },
  { name: 'GET /api/v1/message/{ID} (attachments)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}` },
  { name: 'GET /api/v1/message/{ID} (inline image)', method: 'GET', path: (t) => `/api/v1/message/${id('inline')(t)}` },
  { name: 'GET /api/v1/message/{ID} (tagged)', method: 'GET', path: (t) => `/api/v1/message/${id('tagged')(t)}` },
  { name: 'GET /api/v1/message/latest', method: 'GET', path: () => '/api/v1/message/latest' },
  { name: 'GET /api/v1/message/latest (query)', method: 'GET', path: () => `/api/v1/message/latest?query=${encodeURIComponent('subject:newsletter')}` },
  { name: 'GET /api/v1/message/latest (query, no match)', method: 'GET', path: () => `/api/v1/message/latest?query=${encodeURIComponent('subject:zanzibarquartz')}` },
  { name: 'GET /api/v1/message/{ID} (unknown ID)', method: 'GET', path: () => '/api/v1/message/no-such-message' },
  { name: 'GET /api/v1/message/{ID}/headers', method: 'GET', path: (t) => `/api/v1/message/${id('html')(t)}/headers`, maps: [''] },
  { name: 'GET /api/v1/message/{ID}/headers (unknown ID)', method: 'GET', path: () => '/api/v1/message/no-such-message/headers' },
  { name: 'GET /api/v1/message/{ID}/raw', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}/raw` },
  { name: 'GET /api/v1/message/{ID}/raw (dl=1)', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}/raw?dl=1` },
  { name: 'GET /api/v1/message/{ID}/raw (unknown ID)', method: 'GET', path: () => '/api/v1/message/no-such-message/raw' },
  { name: 'GET /api/v1/message/{ID}/part/{PartID} (PDF)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}/part/${part('report.pdf')(t)}` },
  { name: 'GET /api/v1/message/{ID}/part/{PartID} (PNG)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}/part/${part('chart.png')(t)}` },
  { name: 'GET /api/v1/message/{ID}/part/{PartID} (unknown part)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}/part/99` },
  { name: 'GET /api/v1/message/{ID}/part/{PartID}/thumb (PNG)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}/part/${part('chart.png')(t)}/thumb` },
  { name: 'GET /api/v1/message/{ID}/part/{PartID}/thumb (PDF)', method: 'GET', path: (t) => `/api/v1/message/${id('attachments')(t)}/part/${part('report.pdf')(t)}/thumb` },
  { name: 'GET /api/v1/message/{ID}/html-check', method: 'GET', path: (t) => `/api/v1/message/${id('html')(t)}/html-check`, maps: ['Platforms', 'Warnings[].NotesByNumber'] },
  { name: 'GET /api/v1/message/{ID}/html-check (no HTML)', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}/html-check`, maps: ['Platforms', 'Warnings[].NotesByNumber'] },
  { name: 'GET /api/v1/message/{ID}/link-check', method: 'GET', path: (t) => `/api/v1/message/${id('html')(t)}/link-check` },
  { name: 'GET /api/v1/message/{ID}/link-check (follow)', method: 'GET', path: (t) => `/api/v1/message/${id('html')(t)}/link-check?follow=true` },
  { name: 'GET /api/v1/message/{ID}/link-check (no links)', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}/link-check` },
  { name: 'GET /api/v1/message/{ID}/sa-check (no SpamAssassin)', method: 'GET', path: (t) => `/api/v1/message/${id('plain')(t)}/sa-check` },
  { name: 'POST /api/v1/message/{ID}/release', method: 'POST', path: (t) => `/api/v1/message/${id('plain')(t)}/release`, body: () => ({ To: ['someone@conformance.test'] }) },
  {
    name: 'POST /api/v1/send',
    method: 'POST',
    path: () => '/api/v1/send',
    body: () => ({
      From: { Email: 'app@conformance.test', Name: 'App' }, To: [{ Email: 'ann@conformance.test', Name: 'Ann' }], Bcc: ['audit@conformance.test'],
      Subject: 'Sent over HTTP', Text: 'hello', HTML: '<p>hello</p>', Tags: ['sent'], Headers: { 'X-Origin': 'conformance' },
      Attachments: [{ Filename: 'note.txt', Content: Buffer.from('attached').toString('base64'), ContentType: 'text/plain' }],
    }),
  },
  { name: 'POST /api/v1/send (bad JSON)', method: 'POST', path: () => '/api/v1/send', body: () => BAD_JSON },
  { name: 'POST /api/v1/send (no From)', method: 'POST', path: () => '/api/v1/send', body: () => ({ To: [{ Email: 'ann@conformance.test' }], Subject: 'x' }) },
  { name: 'GET /api/v1/tags', method: 'GET', path: () => '/api/v1/tags' },
  { name: 'PUT /api/v1/tags', method: 'PUT', path: () => '/api/v1/tags', body: (t) => ({ IDs: [id('plain')(t), id('code')(t)], Tags: ['alpha', 'beta'] }) },
  { name: 'PUT /api/v1/tags (bad JSON)', method: 'PUT', path: () => '/api/v1/tags', body: () => BAD_JSON },
  { name: 'PUT /api/v1/tags/{Tag}', method: 'PUT', path: () => '/api/v1/tags/alpha', body: () => ({ Name: 'gamma' }) },
  { name: 'PUT /api/v1/tags/{Tag} (bad JSON)', method: 'PUT', path: () => '/api/v1/tags/gamma', body: () => BAD_JSON },
  { name: 'DELETE /api/v1/tags/{Tag}', method: 'DELETE', path: () => '/api/v1/tags/beta' },
  { name: 'GET /api/v1/tags (after changes)', method: 'GET', path: () => '/api/v1/tags' },
  { name: 'GET /api/v1/chaos', method: 'GET', path: () => '/api/v1/chaos' },
  { name: 'PUT /api/v1/chaos', method: 'PUT', path: () => '/api/v1/chaos', body: () => ({ Sender: { ErrorCode: 451, Probability: 50 } }) },
  { name: 'PUT /api/v1/chaos (bad JSON)', method: 'PUT', path: () => '/api/v1/chaos', body: () => BAD_JSON },
  { name: 'PUT /api/v1/chaos (reset)', method: 'PUT', path: () => '/api/v1/chaos', body: () => ({}) },
  { name: 'GET /view/{ID}.html', method: 'GET', path: (t) => `/view/${id('html')(t)}.html` },
  { name: 'GET /view/{ID}.html (embed=1)', method: 'GET', path: (t) => `/view/${id('inline')(t)}.html?embed=1` },
  { name: 'GET /view/{ID}.html (no HTML)', method: 'GET', path: (t) => `/view/${id('plain')(t)}.html` },
  { name: 'GET /view/{ID}.txt', method: 'GET', path: (t) => `/view/${id('plain')(t)}.txt` },
  { name: 'GET /view/{ID}.html (unknown ID)', method: 'GET', path: () => '/view/no-such-message.html' },
  { name: 'PUT /api/v1/messages (IDs)', method: 'PUT', path: () => '/api/v1/messages', body: (t) => ({ IDs: [id('plain')(t)], Read: true }) },
  { name: 'PUT /api/v1/messages (Search)', method: 'PUT', path: () => '/api/v1/messages', body: () => ({ Search: 'subject:newsletter', Read: false }) },
  { name: 'PUT /api/v1/messages (all)', method: 'PUT', path: () => '/api/v1/messages', body: () => ({ Read: true }) },
  { name: 'PUT /api/v1/messages (bad JSON)', method: 'PUT', path: () => '/api/v1/messages', body: () => BAD_JSON },
  { name: 'PUT /api/v1/messages (IDs not a list)', method: 'PUT', path: () => '/api/v1/messages', body: () => ({ IDs: 'not a list' }) },
  { name: 'DELETE /api/v1/search', method: 'DELETE', path: () => `/api/v1/search?query=${encodeURIComponent('subject:"sign-in code"')}` },
  { name: 'DELETE /api/v1/search (no query)', method: 'DELETE', path: () => '/api/v1/search' },
  { name: 'DELETE /api/v1/messages (IDs)', method: 'DELETE', path: () => '/api/v1/messages', body: (t) => ({ IDs: [id('plain')(t)] }) },
  { name: 'DELETE /api/v1/messages (bad JSON)', method: 'DELETE', path: () => '/api/v1/messages', body: () => BAD_JSON },
  { name: 'DELETE /api/v1/messages (all)', method: 'DELETE', path: () => '/api/v1/messages' },
  { name: 'GET /api/v1/messages (empty)', method: 'GET', path: () => '/api/v1/messages' },
  { name: 'GET /api/v1/nowhere (unknown route)', method: 'GET', path: () => '/api/v1/nowhere' },
  { name: 'PATCH /api/v1/messages (method not served)', method: 'PATCH', path: () => '/api/v1/messages' },
];

// ---------- shapes ----------

/** An answer reduced to what is compared. */
interface Answer {
  status: number;
  mediaType: string;
  /** JSON field paths (`a.b`, `list[].c`) and their JSON types; null for an answer that is not JSON. */
  shape: Map<string, string> | null;
  /** Where the elements of an empty array or the entries of an empty map would be: their shape is unknown, not different. */
  unseen: Set<string>;
}

const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);

function shapeOf(value: unknown, maps: string[]): Pick<Answer, 'unseen'> & { shape: Map<string, string> } {
  const shape = new Map<string, string>();
  const unseen = new Set<string>();
  const add = (at: string, type: string) => {
    const known = shape.get(at);
    if (known === undefined) shape.set(at, type);
    else if (!known.split('|').includes(type)) shape.set(at, [...known.split('|'), type].sort().join('|'));
  };
  const visit = (at: string, node: unknown) => {
    add(at === '' ? '(root)' : at, jsonType(node));
    const child = (key: string) => (at === '' ? key : `${at}.${key}`);
    if (Array.isArray(node)) {
      if (node.length === 0) unseen.add(`${at}[]`);
      for (const element of node) visit(`${at}[]`, element);
    } else if (node !== null && typeof node === 'object') {
      const isMap = maps.includes(at);
      if (isMap && Object.keys(node).length === 0) unseen.add(child('{key}'));
      for (const [key, inner] of Object.entries(node)) visit(isMap ? child('{key}') : child(key), inner);
    }
  };
  visit('', value);
  return { shape, unseen };
}

/** A JSON integer is also a JSON number: a field that is 0 on one side and 0.5 on the other is not a difference. */
const sameType = (a: string, b: string) => a === b || [a, b].every((type) => ['integer', 'number', 'integer|number'].includes(type));

async function ask(target: Target, probe: Probe): Promise<Answer> {
  const body = probe.body?.(target);
  const response = await fetch(`${target.url}${probe.path(target)}`, {
    method: probe.method,
    headers: { ...target.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const mediaType = (response.headers.get('content-type') ?? '(none)').split(';')[0]!.trim().toLowerCase();
  const text = await response.text();
  if (mediaType !== 'application/json') return { status: response.status, mediaType, shape: null, unseen: new Set() };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status: response.status, mediaType, shape: new Map([['(root)', 'unparseable JSON']]), unseen: new Set() };
  }
  return { status: response.status, mediaType, ...shapeOf(parsed, probe.maps ?? []) };
}

interface Difference {
  probe: string;
  what: 'status' | 'content type' | 'field';
  /** The field path, for a field. */
  field?: string;
  mailpit: string;
  ours: string;
}

/** Whether a path lies in an array or map that was empty in that answer, where no element could be seen. */
const unseenIn = (answer: Answer, field: string) => [...answer.unseen].some((prefix) => field.startsWith(prefix));

function compare(probe: string, mailpit: Answer, ours: Answer): Difference[] {
  const differences: Difference[] = [];
  if (mailpit.status !== ours.status) differences.push({ probe, what: 'status', mailpit: String(mailpit.status), ours: String(ours.status) });
  if (mailpit.mediaType !== ours.mediaType) differences.push({ probe, what: 'content type', mailpit: mailpit.mediaType, ours: ours.mediaType });
  if (mailpit.shape === null || ours.shape === null) return differences;
  const fields = [...new Set([...mailpit.shape.keys(), ...ours.shape.keys()])].sort();
  for (const field of fields) {
    const [theirs, mine] = [mailpit.shape.get(field), ours.shape.get(field)];
    if (theirs !== undefined && mine !== undefined && sameType(theirs, mine)) continue;
    if (theirs === undefined && unseenIn(mailpit, field)) continue;
    if (mine === undefined && unseenIn(ours, field)) continue;
    differences.push({ probe, what: 'field', field, mailpit: theirs ?? '(absent)', ours: mine ?? '(absent)' });
  }
  return differences;
}

// ---------- the differences mailpit-api.yaml documents ----------

/**
 * Each documented difference: the words that find its bullet among the contract's "Differences from Mailpit" (read
 * from mailpit-api.yaml at each run, so a bullet that goes away makes its entry fail loudly), and the differences it
 * accounts for.
 */
interface DocumentedDifference {
  bullet: string;
  covers: (difference: Difference) => boolean;
}

const field = (pattern: RegExp) => (difference: Difference) => difference.what === 'field' && pattern.test(difference.field!);
const onRoute = (pattern: RegExp, covers: (difference: Difference) => boolean) => (difference: Difference) => pattern.test(difference.probe) && covers(difference);

const DOCUMENTED: DocumentedDifference[] = [
  { bullet: 'RuntimeStats holds only Uptime', covers: onRoute(/^GET \/api\/v1\/info/, field(/^RuntimeStats\./)) },
  {
    bullet: 'An empty `Cc`, `Bcc` or `ReplyTo` of a list\'s message is `[]`, where Mailpit writes `null`',
    // Mailpit's null where ours is an array: a type that is null on its side only.
    covers: onRoute(/^GET \/api\/v1\/(messages|search)/, (difference) => field(/^messages\[\]\.(Cc|Bcc|ReplyTo)$/)(difference) && difference.ours === 'array' && difference.mailpit.split('|').every((type) => type === 'array' || type === 'null')),
  },
  { bullet: 'Checksums is an empty object', covers: onRoute(/^GET \/api\/v1\/message\//, field(/^(Attachments|Inline)\[\]\.Checksums\./)) },
  {
    bullet: 'Thumbnails are PNG images of at most 240 pixels on either side',
    covers: onRoute(/\/thumb /, (difference) => (difference.what === 'content type' && difference.ours === 'image/png') || (/\(PDF\)/.test(difference.probe) && ['status', 'content type'].includes(difference.what))),
  },
];

function contractBullets(): string[] {
  const contract = YAML.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'mailpit-api.yaml'), 'utf8')) as { info: { description: string } };
  const differences = contract.info.description.split('**Differences from Mailpit**')[1] ?? '';
  return differences.split(/\n\s*- /).slice(1).map((bullet) => bullet.replace(/\s+/g, ' ').trim());
}

// ---------- main ----------

async function sendAll(transport: Transporter, mails: Sample[]): Promise<void> {
  try {
    for (const { mail } of mails) await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}

async function main(): Promise<void> {
  const bullets = contractBullets();
  const documented = DOCUMENTED.map((entry) => {
    const bullet = bullets.find((text) => text.includes(entry.bullet));
    if (bullet === undefined) throw new Error(`mailpit-api.yaml documents no difference with the words "${entry.bullet}"`);
    return { ...entry, text: bullet };
  });

  // Chaos is served by Mailpit only when enabled; SpamAssassin is off on both sides, so sa-check is absent on both.
  const mailpit: Mailpit = await startMailpit(ensureMailpit(progress), ['--enable-chaos']);
  let server: StartedServer | null = null;
  try {
    server = await startServer({ env: { SANDBOX_SPAMD_URL: '' } });
    if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
    const inbox = await createInbox(new ApiClient(server.httpUrl, server.defaultKey), 'mailpit-conformance');
    const mail = await samples();
    const labelsBySubject = new Map(mail.map((sample) => [String(sample.mail.subject), sample.label]));
    progress(`sending ${mail.length} messages to Mailpit ${MAILPIT_VERSION} (no AUTH) and to inbox ${inbox.name} (its SMTP login)`);
    await sendAll(nodemailer.createTransport({ host: '127.0.0.1', port: mailpit.smtpPort, secure: false, ignoreTLS: true }), mail);
    await sendAll(smtpTransport(credentialsOf(inbox)), mail);

    const theirs: Target = { name: 'mailpit', url: mailpit.httpUrl, headers: {}, ids: new Map(), parts: new Map() };
    const basic = Buffer.from(`${inbox.name}:${server.defaultKey}`).toString('base64');
    const mine: Target = { name: 'ours', url: server.httpUrl, headers: { authorization: `Basic ${basic}` }, ids: new Map(), parts: new Map() };
    await discover(theirs, labelsBySubject);
    await discover(mine, labelsBySubject);

    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    const used = new Set<string>();
    let documentedCount = 0;
    let undocumentedCount = 0;
    let sameCount = 0;
    print(`Mailpit ${MAILPIT_VERSION} and mail-sandbox (${testProfile()} profile): ${PROBES.length} requests, the answers' status, media type and JSON shape`);
    for (const probe of PROBES) {
      const [a, b] = [await ask(theirs, probe), await ask(mine, probe)];
      const differences = compare(probe.name, a, b);
      const answered = `${a.status} ${a.mediaType}${a.status === b.status && a.mediaType === b.mediaType ? '' : ` / ours ${b.status} ${b.mediaType}`}`;
      if (differences.length === 0) {
        sameCount++;
        print(`  same          ${probe.name}: ${answered}`);
        continue;
      }
      print(`  differs       ${probe.name}: ${answered}`);
      for (const difference of differences) {
        const entry = documented.find((candidate) => candidate.covers(difference));
        const what = difference.what === 'field' ? `field ${difference.field}` : difference.what;
        if (entry) {
          documentedCount++;
          used.add(entry.bullet);
          print(`    documented    ${what}: Mailpit ${difference.mailpit}, ours ${difference.ours}  [mailpit-api.yaml: "${entry.bullet}"]`);
        } else {
          undocumentedCount++;
          print(`    UNDOCUMENTED  ${what}: Mailpit ${difference.mailpit}, ours ${difference.ours}`);
        }
      }
    }
    print('');
    print('The contract\'s differences that accounted for the ones above (mailpit-api.yaml, info.description, "Differences from Mailpit"):');
    for (const entry of documented.filter((candidate) => used.has(candidate.bullet))) print(`  - ${entry.text}`);
    print('');
    print(`Summary: ${PROBES.length} requests, ${sameCount} the same, ${PROBES.length - sameCount} differing; ${documentedCount} documented differences, ${undocumentedCount} UNDOCUMENTED`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (undocumentedCount > 0) process.exitCode = 1;
  } finally {
    await mailpit.stop();
    if (server) {
      await server.stop();
      await removeScratchData(server.dataDir);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`conformance:mailpit failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
});
