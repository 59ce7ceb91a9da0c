// Which outside addresses requests may reach (webhooks, checked links, stylesheets): public unicast addresses only.
// Checked before a request and again on every connection, because a name can resolve to several addresses and to
// other ones later (DNS rebinding).
import type dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { NameLookupError, type NameResolver, type ResolvedAddress } from './name-resolver.js';

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
  /**
   * The ports requested, as inclusive ranges (SANDBOX_LINK_CHECK_PORTS for links and stylesheets); any port when
   * absent (a webhook's owner chose its port). Links in a stranger's mail could otherwise aim requests at any
   * service on a public host.
   */
  ports?: readonly (readonly [number, number])[];
  /** Looks up the names of targets, in the requesting workspace's turn; every outbound request shares one. */
  names: NameResolver;
}

/** Port ranges as a reader writes them: `80, 443 and 8000-8999`. */
export function portRangesText(ranges: readonly (readonly [number, number])[]): string {
  const parts = ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts.join('');
}

/**
 * Checks a webhook URL's form: http(s) only (plain http only where private targets are allowed), no credentials,
 * and an IP-literal host must be public. The WHATWG URL parser has already turned odd IPv4 spellings (`127.1`,
 * `2130706433`, `0x7f000001`, `017700000001`) into dotted quads here, so they are judged as what they reach.
 * Returns the parsed URL, or why it is refused.
 */
export function urlRefusal(raw: string, policy: Omit<TargetPolicy, 'names'>): { url: URL } | { refusal: string } {
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
  if (policy.ports) {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (!policy.ports.some(([from, to]) => port >= from && port <= to)) {
      return { refusal: `port ${port} is not checked (only ports ${portRangesText(policy.ports)} are)` };
    }
  }
  const host = hostOf(url);
  if (!policy.allowPrivate && net.isIP(host) !== 0) {
    const refusal = addressRefusal(host);
    if (refusal) return { refusal };
  }
  return { url };
}

/** The URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** True when every address is public unicast (or the policy lifts the rule). */
const allPublic = (addresses: readonly ResolvedAddress[], policy: TargetPolicy): boolean =>
  policy.allowPrivate || addresses.every((entry) => addressRefusal(entry.address) === null);

/**
 * Not which address: a refusal is shown to whoever sent the link or registered the webhook, and the addresses a name
 * resolves to inside this network are none of their business.
 */
const nonPublicRefusal = (host: string): string => `the name ${host} resolves to a non-public address`;

/**
 * urlRefusal, and then, for a name, every address it resolves to now (a webhook's creation). Attempts check again
 * at connect time with resolveTarget, since the name may resolve elsewhere later.
 */
export async function targetRefusal(raw: string, policy: TargetPolicy, workspaceId: string): Promise<{ url: URL } | { refusal: string }> {
  const checked = urlRefusal(raw, policy);
  if ('refusal' in checked) return checked;
  const host = hostOf(checked.url);
  if (policy.allowPrivate || net.isIP(host) !== 0) return checked;
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.names.resolve(host, workspaceId);
  } catch (error) {
    if (error instanceof NameLookupError) return { refusal: error.message };
    throw error;
  }
  return allPublic(addresses, policy) ? checked : { refusal: nonPublicRefusal(host) };
}

/**
 * The `lookup` option for http(s).request to an already checked URL: for a name, every address it resolves to now
 * (in `workspaceId`'s turn), all of them public, handed back as the only addresses the socket may use, so it connects
 * only where the check looked and no second lookup happens. Nothing for an IP literal, which Node connects to without
 * a lookup and urlRefusal has judged. Rejects with NameLookupError, or an error of code FORBIDDEN_TARGET.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy, workspaceId: string, signal?: AbortSignal): Promise<{ lookup?: LookupFunction }> {
  const host = hostOf(url);
  if (net.isIP(host) !== 0) return {};
  const addresses = await policy.names.resolve(host, workspaceId, signal);
  if (!allPublic(addresses, policy)) throw Object.assign(new Error(nonPublicRefusal(host)), { code: FORBIDDEN_TARGET });
  return { lookup: pinnedLookup(addresses) };
}

/** Hands out only `addresses`, of the family asked for, one or all as Node asks. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = addresses.filter((entry) => !options.family || entry.family === options.family);
    if (wanted.length === 0) return callback(Object.assign(new Error(`the name ${hostname} has no IPv${options.family} address`), { code: 'ENODATA' }), '', 0);
    if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, wanted);
    return callback(null, wanted[0]!.address, wanted[0]!.family);
  };
}
