// A generated mail corpus for the scale benches: message i is fully determined by i (no shared random state), with
// realistic sizes (short plain mail, ~5 KB HTML mail, a few attachments), senders and recipients drawn from skewed
// populations, subjects and bodies from a Zipf-distributed vocabulary, and needles planted at known rates so each
// search shape below selects a known share of the corpus (the shapes of bench:vs-mailpit, plus the structured ones
// of bench:search).
import { once } from 'node:events';
import fs from 'node:fs';

/** 32-bit mix of (i, salt): a uniform number in [0, 1) for message i's draw number `salt`. */
function draw(i: number, salt: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const intIn = (i: number, salt: number, min: number, max: number) => min + Math.floor(draw(i, salt) * (max - min + 1));

/** Index sampler with weights rank^-s: a few entries are common, most are rare; u in [0, 1) picks one. */
export function zipf(n: number, s: number): (u: number) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) {
    total += 1 / (rank + 1) ** s;
    cumulative[rank] = total;
  }
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Planted needles; the vocabulary below holds none of them, nor any word containing one. */
export const RARE_WORD = 'quillwort';
export const COMMON_WORD = 'delivery';
export const PHRASE = 'please confirm your shipping address';
export const ABSENT_WORD = 'zanzibarquartz';
const WEEKLY_SUBJECT = 'Weekly report';
const SHAPE_SENDER = 'statements@ledgerly.example';
const SHAPE_RECIPIENT = 'jane.doe+qa@example.com';
const NOREPLY_SENDER = 'noreply@notify.example';

const COMMON_WORDS = `the to and of a your you for is in this on we be with that it has have will account if are from at our by
  can not or an as all more any new email about team click here link below us order update information message thanks
  regards best support service time details review payment password access request today just one need help contact
  questions now available change settings security report week data customer project status meeting notes number
  total amount due date invoice receipt shipped confirm verify user users following changes released version feature
  issue ticket resolved pending approved declined subscription plan billing renewal trial expire active reminder
  schedule calendar event invitation accepted members share document file attached download upload storage limit
  usage monthly daily summary dashboard metrics performance error warning alert failed passed build deploy production
  staging server database backup restore completed started finished processing received sent opened clicked
  preferences notification privacy policy terms agreement signed welcome getting guide learn onboarding profile
  complete photo name phone mobile device login session location browser app application install upgrade`
  .split(/\s+/)
  .filter((word, index, all) => word !== '' && all.indexOf(word) === index);

/** Pseudo-words from syllables with no 'q' or 'z', so they can never contain a needle. */
function buildVocabulary(size: number): string[] {
  const onsets = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'st', 'tr', 'sh', 'ch', 'th'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
  const codas = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'rt', 'st', 'ck'];
  const needles = [RARE_WORD, COMMON_WORD, ABSENT_WORD];
  const words = COMMON_WORDS.filter((word) => !needles.some((needle) => word.includes(needle)));
  const seen = new Set(words);
  for (let n = 0; words.length < size; n++) {
    let word = '';
    const syllables = 2 + Math.floor(draw(n, 1) * 3);
    for (let k = 0; k < syllables; k++) {
      word += onsets[Math.floor(draw(n, 10 + k) * onsets.length)]! + vowels[Math.floor(draw(n, 20 + k) * vowels.length)]!;
      if (k === syllables - 1) word += codas[Math.floor(draw(n, 30) * codas.length)]!;
    }
    if (!seen.has(word) && !needles.some((needle) => word.includes(needle))) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

const VOCABULARY = buildVocabulary(6000);
const wordAt = zipf(VOCABULARY.length, 1.05);
const word = (i: number, salt: number) => VOCABULARY[wordAt(draw(i, salt))]!;

const FIRST = ['jane', 'john', 'maria', 'ahmed', 'li', 'olga', 'peter', 'sofia', 'kenji', 'amara', 'lucas', 'emma', 'noah', 'mia', 'ivan', 'fatima', 'diego', 'chloe', 'raj', 'anna', 'tom', 'lena', 'omar', 'sara', 'felix', 'nina', 'paul', 'eva', 'leo', 'zoe'];
const LAST = ['smith', 'garcia', 'khan', 'wei', 'ivanova', 'muller', 'rossi', 'tanaka', 'okafor', 'silva', 'jensen', 'brown', 'novak', 'petrov', 'haddad', 'lopez', 'martin', 'patel', 'berg', 'kowalski', 'nguyen', 'ali', 'cohen', 'fischer', 'moreau', 'sato', 'adeyemi', 'larsen', 'dubois'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Cyberdyne', 'Soylent', 'Tyrell', 'Vandelay', 'Oceanic', 'Massive', 'Dunder', 'Aperture', 'Monarch', 'Gringotts'];
const SERVICES = ['no-reply', 'billing', 'support', 'notifications', 'alerts', 'security', 'reports', 'hello', 'team', 'orders'];
const CITIES = ['Berlin', 'Lagos', 'Lima', 'Osaka', 'Toronto', 'Madrid', 'Nairobi', 'Hanoi', 'Oslo', 'Austin', 'Porto', 'Seoul'];
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const domainOf = (company: string) => `${company.toLowerCase()}.example`;

interface Address {
  name: string;
  address: string;
}

/** ~2,000 senders: the service mailboxes of a few companies send most mail, then a long tail of people. */
const SENDERS: Address[] = (() => {
  const senders: Address[] = [];
  for (const company of COMPANIES) for (const service of SERVICES) senders.push({ name: `${company} ${capitalize(service.replace('-', ' '))}`, address: `${service}@${domainOf(company)}` });
  for (let n = 0; senders.length < 2000; n++) {
    const first = FIRST[n % FIRST.length]!;
    const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
    senders.push({ name: `${capitalize(first)} ${capitalize(last)}`, address: `${first}.${last}${Math.floor(n / (FIRST.length * LAST.length)) || ''}@${domainOf(COMPANIES[n % COMPANIES.length]!)}` });
  }
  return senders;
})();
const senderAt = zipf(SENDERS.length, 1.1);

/** ~5,000 test users, addressed with a skew as test suites do (a few accounts get most mail). */
const RECIPIENTS: Address[] = Array.from({ length: 5000 }, (_, n) => {
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
  return { name: `${capitalize(first)} ${capitalize(last)}`, address: `${first}.${last}+t${n}@${['example.com', 'example.org', 'qa.example.net'][n % 3]}` };
});
const recipientAt = zipf(RECIPIENTS.length, 0.8);

const SUBJECTS: ((i: number) => string)[] = [
  () => 'Reset your password',
  (i) => `Invoice #${intIn(i, 40, 10000, 99999)} for ${COMPANIES[intIn(i, 41, 0, COMPANIES.length - 1)]}`,
  (i) => `Your order #${intIn(i, 40, 100000, 999999)} has shipped`,
  () => 'Verify your email address',
  (i) => `[${['api', 'web', 'billing', 'mobile', 'infra'][intIn(i, 40, 0, 4)]}] Build #${intIn(i, 41, 1000, 9999)} ${['passed', 'failed', 'fixed'][intIn(i, 42, 0, 2)]}`,
  (i) => `Meeting notes: ${word(i, 43)} ${word(i, 44)}`,
  (i) => `Action required: ${word(i, 43)} ${word(i, 44)}`,
  (i) => `Re: ${word(i, 43)} ${word(i, 44)} ${word(i, 45)}`,
  (i) => `Security alert: new sign-in from ${CITIES[intIn(i, 40, 0, CITIES.length - 1)]}`,
  (i) => `Welcome to ${COMPANIES[intIn(i, 40, 0, COMPANIES.length - 1)]}, ${FIRST[intIn(i, 41, 0, FIRST.length - 1)]}`,
];

/** What each planted feature of message i is, so a search shape's expected matches can be counted. */
export const corpusTraits = {
  rare: (i: number) => i % 1000 === 500,
  common: (i: number) => i % 3 === 0,
  weekly: (i: number) => i % 10 === 0,
  shapeSender: (i: number) => i % 100 === 40,
  shapeRecipient: (i: number) => i % 500 === 123,
  phrase: (i: number) => i % 100 === 7,
  noreply: (i: number) => i % 4 === 1,
  kind: (i: number): 'plain' | 'html' | 'attachment' => {
    const roll = draw(i, 2);
    return roll < 0.05 ? 'attachment' : roll < 0.33 ? 'html' : 'plain';
  },
};

export interface SearchShape {
  shape: string;
  q: string;
  matches: (i: number) => boolean;
}

/** The search shapes the scale bench times: bench:vs-mailpit's eight, then a negation, a disjunction and a structured filter. */
export const SEARCH_SHAPES: SearchShape[] = [
  { shape: 'rare word (1 in 1,000)', q: RARE_WORD, matches: corpusTraits.rare },
  { shape: 'common word (1 in 3)', q: COMMON_WORD, matches: corpusTraits.common },
  { shape: 'subject phrase (1 in 10)', q: 'subject:"weekly report"', matches: corpusTraits.weekly },
  { shape: 'from (1 in 100)', q: `from:${SHAPE_SENDER}`, matches: corpusTraits.shapeSender },
  { shape: 'to (1 in 500)', q: `to:${SHAPE_RECIPIENT}`, matches: corpusTraits.shapeRecipient },
  { shape: 'phrase (1 in 100)', q: `"${PHRASE}"`, matches: corpusTraits.phrase },
  {
    shape: 'from + subject + word (1 in 300)',
    q: `from:${SHAPE_SENDER} subject:"weekly report" ${COMMON_WORD}`,
    matches: (i) => corpusTraits.shapeSender(i) && corpusTraits.weekly(i) && corpusTraits.common(i),
  },
  { shape: 'no match', q: ABSENT_WORD, matches: () => false },
  { shape: 'negation (3 in 4)', q: `-from:${NOREPLY_SENDER}`, matches: (i) => !corpusTraits.noreply(i) },
  { shape: 'disjunction (1 in 77)', q: `from:${SHAPE_SENDER} OR to:${SHAPE_RECIPIENT} OR ${RARE_WORD}`, matches: (i) => corpusTraits.shapeSender(i) || corpusTraits.shapeRecipient(i) || corpusTraits.rare(i) },
  { shape: 'has:attachment (1 in 20)', q: 'has:attachment', matches: (i) => corpusTraits.kind(i) === 'attachment' },
];

/** Message i's index, from the Message-ID the corpus gives it; null for any other. */
export function corpusIndexOf(messageId: string): number | null {
  const match = /^<m(\d+)\.corpus@scale\.bench\.example>$/.exec(messageId);
  return match ? Number(match[1]) : null;
}

const CORPUS_START = Date.UTC(2026, 0, 5);

function sentence(i: number, salt: number): string {
  const length = intIn(i, salt, 6, 16);
  const words: string[] = [];
  for (let k = 0; k < length; k++) words.push(word(i, salt * 31 + k));
  return `${capitalize(words.join(' '))}.`;
}

/** Paragraphs of filler, ~`bytes` long, with the needles message i carries on lines of their own. */
function bodyText(i: number, greeting: string, bytes: number): string[] {
  const paragraphs = [`Hi ${greeting},`];
  let length = 0;
  for (let p = 0; length < bytes; p++) {
    const sentences = intIn(i, 200 + p, 2, 5);
    const text = Array.from({ length: sentences }, (_, s) => sentence(i, 300 + p * 7 + s)).join(' ');
    paragraphs.push(text);
    length += text.length;
  }
  if (corpusTraits.rare(i)) paragraphs.splice(1, 0, `Field note: a ${RARE_WORD} was seen near the depot.`);
  if (corpusTraits.phrase(i)) paragraphs.splice(1, 0, `${capitalize(PHRASE)} before we dispatch the parcel.`);
  if (corpusTraits.common(i)) paragraphs.push(`Expected ${COMMON_WORD} window: ${1 + (i % 5)} working days.`);
  paragraphs.push('Best regards,');
  return paragraphs;
}

/** Lines of at most 76 characters, for a quoted-printable-free 7-bit body. */
function wrap(paragraphs: string[]): string {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    let line = '';
    for (const piece of paragraph.split(' ')) {
      if (line.length + piece.length + 1 > 76) {
        lines.push(line);
        line = piece;
      } else {
        line = line ? `${line} ${piece}` : piece;
      }
    }
    lines.push(line, '');
  }
  return lines.join('\r\n');
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function htmlBody(i: number, paragraphs: string[], company: string): string {
  const link = (path: string, text: string) => `<a href="https://www.${domainOf(company)}/${path}?utm_source=mail&amp;m=${i}" style="color:#1a73e8;text-decoration:none">${text}</a>`;
  return [
    '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    '<style>body{margin:0;padding:0;background:#f4f4f7}table{border-collapse:collapse}.card{background:#fff;border-radius:6px}',
    '.footer{color:#8a8f98;font-size:12px}@media (prefers-color-scheme:dark){body{background:#111}.card{background:#222;color:#eee}}</style>',
    `</head><body><table role="presentation" width="100%"><tr><td align="center"><table class="card" width="600"><tr><td style="padding:24px">`,
    `<img src="https://cdn.${domainOf(company)}/logo.png" alt="${company}" width="120" height="32">`,
    ...paragraphs.map((paragraph) => `<p style="font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;margin:0 0 16px">${escapeHtml(paragraph)}</p>`),
    `<p>${link('account', 'Open your account')} &middot; ${link('help', 'Help centre')}</p>`,
    `</td></tr></table><p class="footer">${company} Inc. &middot; ${link('preferences', 'Email preferences')} &middot; ${link('unsubscribe', 'Unsubscribe')}</p>`,
    '</td></tr></table></body></html>',
  ].join('\r\n');
}

const base64Lines = (data: Buffer) => (data.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');

/** Binary-looking attachment bytes: deterministic, incompressible enough to stand for a PDF or an image. */
function attachmentBytes(i: number, size: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let state = (i * 2654435761) >>> 0 || 1;
  for (let k = 0; k < words.length; k++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[k] = state;
  }
  return Buffer.from(words.buffer, 0, size);
}

/** Message i as it would sit in a mail store: CRLF, 7-bit. */
export function corpusMessage(i: number): string {
  const sender = corpusTraits.shapeSender(i)
    ? { name: 'Ledgerly Statements', address: SHAPE_SENDER }
    : corpusTraits.noreply(i) ? { name: 'Notifications', address: NOREPLY_SENDER } : SENDERS[senderAt(draw(i, 3))]!;
  const to = corpusTraits.shapeRecipient(i) ? { name: 'Jane Doe', address: SHAPE_RECIPIENT } : RECIPIENTS[recipientAt(draw(i, 4))]!;
  const cc = draw(i, 5) < 0.1 ? RECIPIENTS[recipientAt(draw(i, 6))]! : null;
  const subject = corpusTraits.weekly(i) ? `${WEEKLY_SUBJECT} ${1 + (i % 52)}` : SUBJECTS[intIn(i, 7, 0, SUBJECTS.length - 1)]!(i);
  const company = COMPANIES[intIn(i, 8, 0, COMPANIES.length - 1)]!;
  const kind = corpusTraits.kind(i);
  const headers = [
    `From: "${sender.name}" <${sender.address}>`,
    `To: "${to.name}" <${to.address}>`,
    ...(cc ? [`Cc: "${cc.name}" <${cc.address}>`] : []),
    `Subject: ${subject}`,
    `Date: ${new Date(CORPUS_START + i * 1000).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <m${i}.corpus@scale.bench.example>`,
    'MIME-Version: 1.0',
  ];
  const greeting = capitalize(to.name.split(' ')[0]!);
  if (kind === 'plain') {
    const text = wrap(bodyText(i, greeting, intIn(i, 9, 150, 1200)));
    return [...headers, 'Content-Type: text/plain; charset=us-ascii', 'Content-Transfer-Encoding: 7bit', '', text, ''].join('\r\n');
  }
  const paragraphs = bodyText(i, greeting, intIn(i, 9, 800, 2400));
  const boundary = `=_alt_${i}`;
  const alternative = [
    `--${boundary}`, 'Content-Type: text/plain; charset=us-ascii', 'Content-Transfer-Encoding: 7bit', '', wrap(paragraphs),
    `--${boundary}`, 'Content-Type: text/html; charset=us-ascii', 'Content-Transfer-Encoding: 7bit', '', htmlBody(i, paragraphs, company),
    `--${boundary}--`, '',
  ].join('\r\n');
  if (kind === 'html') return [...headers, `Content-Type: multipart/alternative; boundary="${boundary}"`, '', alternative].join('\r\n');
  const mixed = `=_mixed_${i}`;
  const attachment = attachmentBytes(i, intIn(i, 10, 8_000, 150_000));
  return [
    ...headers, `Content-Type: multipart/mixed; boundary="${mixed}"`, '',
    `--${mixed}`, `Content-Type: multipart/alternative; boundary="${boundary}"`, '', alternative,
    `--${mixed}`, `Content-Type: application/pdf; name="statement-${i}.pdf"`, `Content-Disposition: attachment; filename="statement-${i}.pdf"`,
    'Content-Transfer-Encoding: base64', '', base64Lines(attachment),
    `--${mixed}--`, '',
  ].join('\r\n');
}

/** Writes messages 0..count-1 to an mbox (mboxrd: "From " lines escaped); resolves to the bytes of mail written. */
export async function writeCorpusMbox(file: string, count: number, onProgress: (written: number) => void = () => undefined): Promise<number> {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const raw = corpusMessage(i).replace(/\r\n/g, '\n');
    bytes += Buffer.byteLength(raw);
    const chunk = `From corpus@scale.bench.example ${new Date(CORPUS_START + i * 1000).toUTCString()}\n${raw.replace(/^(>*From )/gm, '>$1')}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
    if ((i + 1) % 50_000 === 0) onProgress(i + 1);
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
