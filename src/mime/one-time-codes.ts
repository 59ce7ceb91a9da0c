// The one-time codes a message carries (sign-in, verification, OTP, PIN), found in its subject, text and HTML text so
// a test can read "the code in the email" without a regex of its own. A number is a code only when a code word is
// near it; years, prices, dates, times, phone, order and tracking numbers are not, even then.

import type { OneTimeCode } from '../domain/types.js';

/** Where a code was found; its value is as a person types it, digits written in groups ("482 913") joined. */
type CodeSource = OneTimeCode['source'];

/** Codes kept per message, best first. */
export const CODES_KEPT = 5;
const CONTEXT_LENGTH = 60;
/**
 * How far before a candidate a code word may be, and how far after ("482913 is your code"), in characters with
 * whitespace runs as one and a sentence end between them as SENTENCE_END_COST.
 */
const WORD_BEFORE = 90;
const WORD_AFTER = 45;
/** Text read per source: codes sit near the top of a message, and a huge body must cost no more than this. */
const READ_LIMIT = 64 * 1024;

/** Whole words of a list, matched case-insensitively; a letter or digit on either side makes it part of another word. */
const wholeWords = (alternatives: string[]): string => String.raw`(?<![\p{L}\p{N}])(?:${alternatives.join('|')})(?![\p{L}\p{N}])`;

/**
 * Words that name a one-time code, in the languages sign-in mail most often comes in; in scripts written without
 * spaces (Chinese, Japanese, Korean) matched wherever they stand.
 */
const CODE_WORDS = new RegExp([
  wholeWords([
    'codes?', 'passcodes?', 'otp', 'pin', '2fa', 'mfa', 'one[- ]time', 'verification', 'verify', 'authentication', 'security',
    'sign[- ]?in', 'log[- ]?in', 'confirmation',
    // German, Dutch, Scandinavian (compounds ending in -code are codes: Bestätigungscode, verificatiecode)
    '\\p{L}+code', 'bestätigung', 'einmalpasswort', 'engangskode', 'bekræftelseskode', 'verifieringskod', 'kode', 'koden',
    // French, Spanish, Portuguese, Italian
    'vérification', 'sécurité', 'usage unique', 'código', 'codigo', 'verificación', 'verificacion', 'clave', 'verificação',
    'verificacao', 'codice', 'verifica',
    // Polish, Czech, Russian, Ukrainian, Turkish
    'kod', 'kodu', 'weryfikacyjny', 'jednorazowy', 'ověřovací', 'код', 'кода', 'подтверждения', 'doğrulama',
  ]),
  '認証コード|確認コード|ワンタイム|コード|验证码|驗證碼|校验码|动态码|인증\\s?번호|인증\\s?코드',
].join('|'), 'giu');

/**
 * A part of every CODE_WORDS alternative, as plain text under the same flags: a text without any of them holds no code
 * word, and is told so without the costlier scan (its look-behind and letter classes cost ~90 ns a character).
 */
const CODE_WORD_STEMS = new RegExp([
  'code', 'otp', 'pin', '2fa', 'mfa', 'one', 'verif', 'vérif', 'auth', 'secur', 'sécur', 'sign', 'log', 'confirm', 'bestätig',
  'einmal', 'kod', 'usage', 'códig', 'codig', 'clave', 'codic', 'weryf', 'jednor', 'ověř', 'код', 'подтв', 'doğr',
  'コード', 'ワンタイム', '認証', '確認', '验证', '驗證', '校验', '动态', '인증',
].join('|'), 'iu');

/** Words that make a nearby number something other than a one-time code, unless a code word is nearer. */
const OTHER_NUMBER_WORDS = new RegExp(wholeWords([
  'order', 'invoice', 'receipt', 'ticket', 'case', 'ref', 'reference', 'tracking', 'shipment', 'parcel', 'account', 'customer',
  'member', 'no\\.', 'nr\\.', 'number', 'phone', 'tel', 'telephone', 'fax', 'mobile', 'call', 'room', 'flight', 'zip', 'zipcode',
  'postcode', 'postal', 'promo', 'promotional', 'coupon', 'discount', 'voucher', 'gift', 'sku', 'item', 'article', 'total', 'amount',
  'price', 'balance', 'card', 'ending', 'ends', 'last', 'qr', 'bar', 'source', 'error', 'status', 'area', 'country',
  'product', 'booking', 'iban', 'bic', 'swift', 'vat', 'tax', 'bestellung', 'bestellnummer', 'rechnung', 'commande', 'facture', 'pedido', 'factura', 'ordine', 'fattura',
]), 'giu');

/** Words that, right after a number, say what it counts: a code is never followed by a unit. */
const COUNTED = new RegExp(String.raw`^\s?(?:${[
  'points?', 'miles?', 'items?', 'people', 'users?', 'followers?', 'views?', 'messages?', 'emails?', 'members?', 'downloads?',
  'subscribers?', 'minutes?', 'mins?', 'hours?', 'hrs?', 'days?', 'seconds?', 'secs?', 'years?', 'times?', 'steps?', 'km', 'kg',
  'stars?', 'reviews?', 'orders?', 'customers?', 'teams?', 'companies', 'countries',
].join('|')})(?![\p{L}])`, 'iu');

/** Candidates: digit runs with their group separators, and letter-digit tokens. */
const DIGIT_RUN = /\d+(?:[ \u00a0-]\d+)*/g;
const MIXED_TOKEN = /[A-Za-z0-9]{5,10}/g;

interface Candidate {
  value: string;
  source: CodeSource;
  start: number;
  end: number;
  /** Lower is better: how far the nearest code word is, with a preference for the subject and the text part. */
  rank: number;
  context: string;
}

/**
 * The one-time codes in a message, best candidate first, each value once (where it ranked best), at most CODES_KEPT.
 * `html` is the HTML body's text, as search reads it.
 */
export function findOneTimeCodes(parts: { subject: string; text: string; html: string }): OneTimeCode[] {
  const found: Candidate[] = [
    ...candidatesIn(parts.subject, 'subject'),
    ...candidatesIn(parts.text, 'text'),
    ...candidatesIn(parts.html, 'html'),
  ];
  found.sort((a, b) => a.rank - b.rank);
  const seen = new Set<string>();
  const codes: OneTimeCode[] = [];
  for (const candidate of found) {
    if (seen.has(candidate.value)) continue;
    seen.add(candidate.value);
    codes.push({ value: candidate.value, source: candidate.source, context: candidate.context });
    if (codes.length === CODES_KEPT) break;
  }
  return codes;
}

const SOURCE_RANK: Record<CodeSource, number> = { subject: 0, text: 1, html: 2 };

/** Links: numbers inside one (a token, an id) are the link's, not codes. */
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
/** A sentence ends between a code word and a number: it counts as this many characters more between them. */
const SENTENCE_END_COST = 40;

function candidatesIn(raw: string, source: CodeSource): Candidate[] {
  if (raw === '') return [];
  const text = raw.slice(0, READ_LIMIT).replace(/[\u034F\u200B-\u200D\u2060\u00AD\uFEFF]/g, '');
  // Every candidate holds a digit, and every code a code word: most mail is done with here, before the costlier scans.
  if (!/\d/.test(text) || !CODE_WORD_STEMS.test(text)) return [];
  const anyCodeWords = matchSpans(text, CODE_WORDS);
  if (anyCodeWords.length === 0) return [];
  const otherWords = matchSpans(text, OTHER_NUMBER_WORDS);
  // "promo code", "zip code", "QR code": a code word another word qualifies names no one-time code.
  const codeWords = anyCodeWords.filter((word) => !otherWords.some((other) => other.end <= word.start && word.start - other.end <= 2));
  if (codeWords.length === 0) return [];
  const scanned = text.replace(URL, (link) => ' '.repeat(link.length));
  const numbers = [...digitCandidates(scanned), ...mixedCandidates(scanned)];

  // Each code word vouches for one number: the nearest after it, else the nearest before it. A footer's postcode or a
  // card's last digits further on are then no code, however many numbers a mail holds.
  const ranks = new Map<(typeof numbers)[number], number>();
  for (const word of codeWords) {
    let claimed: (typeof numbers)[number] | null = null;
    let claimedDistance = Infinity;
    for (const number of numbers) {
      if (number.start >= word.end) {
        const distance = distanceBetween(text, word.end, number.start);
        if (distance <= WORD_BEFORE && distance < claimedDistance) [claimed, claimedDistance] = [number, distance];
      }
    }
    if (claimed === null) {
      for (const number of numbers) {
        if (number.end <= word.start) {
          const distance = distanceBetween(text, number.end, word.start);
          if (distance <= WORD_AFTER && distance < claimedDistance) [claimed, claimedDistance] = [number, distance];
        }
      }
    }
    if (claimed !== null && claimedDistance < (ranks.get(claimed) ?? Infinity)) ranks.set(claimed, claimedDistance);
  }

  const candidates: Candidate[] = [];
  for (const [number, distance] of ranks) {
    // An order, card, phone or price word nearer before it than its code word makes the number that, not a code.
    const other = nearestBefore(otherWords, number.start, WORD_BEFORE);
    if (other !== null && other <= distance) continue;
    candidates.push({ ...number, source, rank: distance * 4 + SOURCE_RANK[source], context: contextOf(text, number.start, number.end) });
  }
  return candidates;
}

/** Characters between two places, whitespace runs as one, and each sentence end between them as SENTENCE_END_COST. */
function distanceBetween(text: string, from: number, to: number): number {
  const between = text.slice(from, to).replace(/\s+/g, ' ');
  const sentenceEnds = (between.match(/[.!?。！？](?:\s|$)/g) ?? []).length;
  return between.length + sentenceEnds * SENTENCE_END_COST;
}

interface NumberAt {
  value: string;
  start: number;
  end: number;
}

/** Runs of digits that may be codes: not glued to Latin letters (a tracking number), not a year, price, date or count. */
function digitCandidates(text: string): NumberAt[] {
  const found: NumberAt[] = [];
  for (const match of text.matchAll(DIGIT_RUN)) {
    if (/[A-Za-z]/.test(text[match.index - 1] ?? '') || /[A-Za-z]/.test(text[match.index + match[0].length] ?? '')) continue;
    for (const part of digitCodes(match[0], match.index)) if (!isOtherNumber(text, part.start, part.end, part.value)) found.push(part);
  }
  return found;
}

/** Letter-digit tokens that may be codes: G3H1Y2, e6mbkbs4. */
function mixedCandidates(text: string): NumberAt[] {
  const found: NumberAt[] = [];
  for (const match of text.matchAll(MIXED_TOKEN)) {
    const token = match[0];
    const start = match.index;
    const end = start + token.length;
    if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) continue;
    if (wordCharAt(text, start - 1) || wordCharAt(text, end)) continue;
    if (/^\d+(?:st|nd|rd|th|am|pm|px|pt|kb|mb|gb|tb|ms|hz|khz|mhz|ghz|mm|cm|km|kg|ml|mp|fps|dpi)$/i.test(token)) continue;
    // Hex colours and hashtags are not codes, nor a word with a number on its end (SAVE20, COVID19): a code mixes
    // letters and digits more than once or is all capitals and digits (G3H1Y2).
    if (text[start - 1] === '#') continue;
    const mixes = (token.match(/\d+|[A-Za-z]+/g) ?? []).length;
    const capitals = token === token.toUpperCase();
    if (mixes < 3 && !capitals) continue;
    found.push({ value: token, start, end });
  }
  return found;
}

/** The codes a run of digits and separators holds: the whole run when its groups are a code written in groups. */
function digitCodes(run: string, at: number): { value: string; start: number; end: number }[] {
  const groups = run.split(/[ \u00a0-]/);
  const digits = groups.join('');
  if (groups.length === 1) return digits.length >= 4 && digits.length <= 10 ? [{ value: digits, start: at, end: at + run.length }] : [];
  const sizes = new Set(groups.map((group) => group.length));
  const [size] = sizes;
  // "482 913", "4829 1307", "48 29 13": equal groups of 2–4 digits, 4–10 in all.
  if (sizes.size === 1 && size! >= 2 && size! <= 4 && digits.length >= 4 && digits.length <= 10) {
    return [{ value: digits, start: at, end: at + run.length }];
  }
  // Unequal groups joined by hyphens are dates, phone and order numbers; by spaces, a code may be followed by a
  // number of its own ("482913 10 minutes"): its first group stands alone.
  if (run.includes('-')) return [];
  const first = groups[0]!;
  return first.length >= 4 && first.length <= 10 ? [{ value: first, start: at, end: at + first.length }] : [];
}

/** Years, prices, decimals, dates, times, percentages, phone numbers and the like, by what stands around the digits. */
function isOtherNumber(text: string, start: number, end: number, value: string): boolean {
  const before = text.slice(Math.max(0, start - 3), start);
  const after = text.slice(end, end + 4);
  if (/[$€£¥₹₽¢]\s?$|[+#]$|\d[.,:/]$|[.,:/]\d?$/.test(before) && !/:\s?$/.test(before)) return true;
  if (/^[.,:/]\d|^\s?%|^\s?(?:€|\$|£|usd|eur|gbp|chf|jpy)\b/i.test(after)) return true;
  if (/^\s?(?:€|\$|£)/.test(after)) return true;
  if (/^\(/.test(after) || /\)\s?$/.test(before)) return true;
  if (COUNTED.test(text.slice(end, end + 16))) return true;
  // Phone numbers open with "+" or a bracketed area code.
  if (/\(\d{2,4}\)\s?$/.test(text.slice(Math.max(0, start - 8), start))) return true;
  if (value.length === 4 && /^(?:19|20)\d\d$/.test(value)) {
    // A year, unless a code word comes right before it ("code: 2041").
    return !/(?:code|pin|otp|код|kod|código|codice)\W{0,3}$/i.test(text.slice(Math.max(0, start - 12), start));
  }
  return false;
}

const wordCharAt = (text: string, index: number): boolean => index >= 0 && index < text.length && /[\p{L}\p{N}_]/u.test(text[index]!);

function matchSpans(text: string, pattern: RegExp): { start: number; end: number }[] {
  return [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

function nearestBefore(words: { start: number; end: number }[], start: number, reach: number): number | null {
  let best: number | null = null;
  for (const word of words) {
    if (word.end <= start && start - word.end <= reach && (best === null || start - word.end < best)) best = start - word.end;
  }
  return best;
}

/** The candidate with the text around it, on one line, at most CONTEXT_LENGTH characters, the code whole. */
function contextOf(text: string, start: number, end: number): string {
  const room = Math.max(0, CONTEXT_LENGTH - (end - start));
  const before = Math.ceil(room * 0.6);
  const from = Math.max(0, start - before);
  const to = Math.min(text.length, end + (room - (start - from)));
  return text.slice(from, to).replace(/\s+/g, ' ').trim();
}
