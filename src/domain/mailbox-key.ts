// What exact-address search compares: an email address reduced to one key, the same for every spelling of the same
// mailbox. Captures key what a message names, queries key what they ask (`to:=alice@example.test`), and every store
// and the in-memory matcher compare keys for equality, so both profiles agree by construction.
import { domainToASCII, domainToUnicode } from 'node:url';
import type { AddressKeys, HeaderAddressKeys } from './types.js';

/**
 * Longest address, in characters, that gets a key. RFC 5321 allows 64 octets of local part and 255 of domain; this
 * leaves room for the UTF-8 local parts of RFC 6531 and for headers that ignore the limits. Longer ones are not
 * matched exactly (substring search still reads them), and a query for one is refused.
 */
export const MAX_ADDRESS_LENGTH = 512;

/** Distinct addresses keyed per field of one message (SANDBOX_MAX_RECIPIENTS' default); those past it are not. */
export const MAX_KEYS_PER_FIELD = 5000;

// C0 and C1 controls and DEL: no mailbox holds one (smtp-server refuses them in MAIL and RCPT).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const ASCII = /^[\x20-\x7e]*$/;

/** A local part that reads the same without quotes: atoms of RFC 5322 (and RFC 6532's UTF-8) joined by single dots. */
const DOT_ATOM = /^[^\s"(),.:;<>@[\\\]]+(?:\.[^\s"(),.:;<>@[\\\]]+)*$/u;

/** Why `address` has no key, or null when it has one. */
export function whyNoKey(address: string): string | null {
  if (CONTROL.test(address)) return 'it holds a control character';
  if ([...address].length > MAX_ADDRESS_LENGTH) return `it is longer than ${MAX_ADDRESS_LENGTH} characters`;
  return splitAddress(address) ? null : 'it is not an address (local-part@domain)';
}

/**
 * The key of an addr-spec (`local@domain`, the local part a dot-atom or a quoted string), or null when it is none.
 * - The local part by what it means: a quoted string by its content, so `"john.smith"` is `john.smith` and
 *   `"john smith"` keeps its space; then Unicode NFC and lower case. RFC 5321 lets only the receiving host decide
 *   whether case matters in a local part, and this service is that host: as nearly every mailbox provider does, it
 *   takes `Alice` and `alice` for one mailbox, so a test finds the mail however the application cased the address.
 *   Nothing else is folded: `alice+tag` and `a.lice` are other mailboxes.
 * - The domain case-insensitively (RFC 5321), an internationalised one by its ASCII form (IDNA, UTS #46), so
 *   `bücher.example` and `xn--bcher-kva.example` are one domain. An address literal (`[192.0.2.1]`) in lower case.
 */
export function mailboxKey(address: string): string | null {
  const parts = CONTROL.test(address) || [...address].length > MAX_ADDRESS_LENGTH ? null : splitAddress(address);
  if (parts === null) return null;
  const { local, domain } = parts;
  return `${local.normalize('NFC').toLowerCase().normalize('NFC')}@${domainKey(domain)}`;
}

/** The keys of a field's addresses: the first MAX_KEYS_PER_FIELD distinct ones, in code unit order. */
export function mailboxKeys(addresses: Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const address of addresses) {
    if (keys.size >= MAX_KEYS_PER_FIELD) break;
    const key = mailboxKey(address);
    if (key !== null) keys.add(key);
  }
  return [...keys].sort();
}

/** Lists of keys as one: the first MAX_KEYS_PER_FIELD distinct ones, in code unit order. */
export function unitedKeys(...lists: string[][]): string[] {
  return [...new Set(lists.flat())].slice(0, MAX_KEYS_PER_FIELD).sort();
}

/**
 * A key written back as an address that keys to itself: the local part quoted where it is no dot-atom, the domain in
 * its Unicode form (`"john smith"@example.test`, `δοκιμή@παράδειγμα.δοκιμή`).
 */
export function mailboxText(key: string): string {
  const at = key.lastIndexOf('@');
  const [local, domain] = [key.slice(0, at), key.slice(at + 1)];
  const shownLocal = DOT_ATOM.test(local) ? local : `"${local.replace(/["\\]/g, '\\$&')}"`;
  const unicode = domain.includes('xn--') ? domainToUnicode(domain) : '';
  return `${shownLocal}@${unicode === '' ? domain : unicode}`;
}

interface AddressParts {
  /** Unquoted: a quoted string's content, its quoted pairs undone. */
  local: string;
  domain: string;
}

function splitAddress(address: string): AddressParts | null {
  let local: string;
  let domain: string;
  if (address.startsWith('"')) {
    const close = closingQuote(address);
    if (close === -1 || address[close + 1] !== '@') return null;
    local = address.slice(1, close).replace(/\\([\s\S])/gu, '$1');
    domain = address.slice(close + 2);
  } else {
    const at = address.lastIndexOf('@');
    if (at === -1) return null;
    local = address.slice(0, at);
    domain = address.slice(at + 1);
  }
  if (local === '' || domain === '' || domain.includes('@') || /\s/u.test(domain)) return null;
  return { local, domain };
}

/** The index of the quote that closes the quoted string opening `text`, or -1. */
function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function domainKey(domain: string): string {
  // An ASCII name is its lower case: running it through IDNA would also read `0x7f.1` as the IPv4 address 127.0.0.1.
  if (domain.startsWith('[') || ASCII.test(domain)) return domain.toLowerCase();
  // domainToASCII answers '' for a name IDNA refuses; such a name is still compared, by its own lower case.
  return domainToASCII(domain) || domain.normalize('NFC').toLowerCase();
}

/** The keys of a message whose header fields name no address. */
export const noHeaderAddresses = (): HeaderAddressKeys => ({ from: [], to: [], cc: [], bcc: [], replyTo: [] });

/** The keys of a message that names no address at all: one stored before keys were, until scripts/reindex reads it again. */
export const noAddresses = (): AddressKeys => ({ ...noHeaderAddresses(), envelopeFrom: [] });
