// Which outside addresses requests may reach (webhooks, checked links, stylesheets): public unicast addresses only.
// Checked before a request and again on every connection, because a name can resolve to several addresses and to
// other ones later (DNS rebinding).
import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How ipaddr.js's range names read in a refusal. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10)',
  private: 'a private',
  reserved: 'a reserved',
  uniqueLocal: 'a unique local (fc00::/7)',
  ipv4Mapped: 'an IPv4-mapped IPv6',
  rfc6145: 'an IPv4-translated IPv6',
  rfc6052: 'a NAT64 (64:ff9b::/96)',
  '6to4': 'a 6to4 (2002::/16)',
  teredo: 'a Teredo (2001::/32)',
  discard: 'a discard-only (100::/64)',
};

/**
 * Why `address` (an IP literal) may not be a webhook target, or null for a public unicast address. Everything
 * ipaddr.js does not call plain unicast is refused, including forms that tunnel or translate to an IPv4 address
 * (mapped, NAT64, 6to4, Teredo) whose embedded address could be internal.
 */
export function addressRefusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  const parsed = ipaddr.parse(address);
  // ::a.b.c.d, IPv4-compatible (deprecated): some stacks route it to a.b.c.d, yet ipaddr.js calls it unicast.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    return `${address} is an IPv4-compatible IPv6 address`;
  }
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is ${RANGE_WORDS[range] ?? `a ${range}`} address`;
}

/** The error code a connection refused by publicOnlyLookup fails with. */
export const FORBIDDEN_TARGET = 'EFORBIDDENTARGET';

export interface TargetPolicy {
  /** SANDBOX_WEBHOOK_ALLOW_PRIVATE / SANDBOX_LINK_CHECK_ALLOW_PRIVATE: private, loopback and plain-HTTP targets allowed, for local development. */
  allowPrivate: boolean;
  /**
   * Plain http to public addresses too. Webhook bodies carry mail, so they go over https only; links in a message
   * are checked as they are written, and many are plain http.
   */
  allowPlainHttp?: boolean;
}

/**
 * Checks a webhook URL's form: http(s) only (plain http only where private targets are allowed), no credentials,
 * and an IP-literal host must be public. The WHATWG URL parser has already turned odd IPv4 spellings (`127.1`,
 * `2130706433`, `0x7f000001`, `017700000001`) into dotted quads here, so they are judged as what they reach.
 * Returns the parsed URL, or why it is refused.
 */
export function urlRefusal(raw: string, policy: TargetPolicy): { url: URL } | { refusal: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: `'${raw.slice(0, 200)}' is not an absolute URL` };
  }
  const plainHttp = policy.allowPrivate || policy.allowPlainHttp === true;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainHttp)) {
    return { refusal: plainHttp ? 'the URL must use http or https' : 'the URL must use https' };
  }
  if (url.username !== '' || url.password !== '') return { refusal: 'the URL must not carry a user name or password' };
  const host = hostOf(url);
  if (!policy.allowPrivate && net.isIP(host) !== 0) {
    const refusal = addressRefusal(host);
    if (refusal) return { refusal };
  }
  return { url };
}

/** The URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Why the first forbidden address among a name's addresses is forbidden, or null when all are public. */
const firstRefusal = (addresses: { address: string }[]): string | null =>
  addresses.map((entry) => addressRefusal(entry.address)).find((reason) => reason !== null) ?? null;

/**
 * urlRefusal, and then, for a name, every address it resolves to now (a webhook's creation). Attempts check again
 * at connect time with publicOnlyLookup, since the name may resolve elsewhere later.
 */
export async function targetRefusal(raw: string, policy: TargetPolicy): Promise<{ url: URL } | { refusal: string }> {
  const checked = urlRefusal(raw, policy);
  if ('refusal' in checked) return checked;
  const host = hostOf(checked.url);
  if (policy.allowPrivate || net.isIP(host) !== 0) return checked;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (error) {
    return { refusal: `the host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
  }
  const refusal = firstRefusal(addresses);
  return refusal ? { refusal: `${host} resolves to ${refusal}` } : checked;
}

/**
 * A `lookup` for http(s).request that resolves every address of the name, refuses the connection if any of them
 * is not public, and otherwise hands back only those checked addresses, so the socket can only go where the
 * check looked. (Node skips `lookup` for IP-literal hosts; urlRefusal judges those.)
 */
export function publicOnlyLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refusal = policy.allowPrivate ? null : firstRefusal(addresses);
      if (refusal) {
        return callback(Object.assign(new Error(`${hostname} resolves to a forbidden address: ${refusal}`), { code: FORBIDDEN_TARGET }), '', 0);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
