// Which Host headers the HTTP ports answer: a page of a rebinding domain (evil.example resolving to 127.0.0.1) must
// not reach sign-in, the API, the dashboard or /metrics of a server listening on this machine.
import ipaddr from 'ipaddr.js';
import { isLoopbackBind } from '../config.js';
import { AppError } from '../errors.js';

// A host name or an IP literal, with an optional port: what may become part of the absolute links we hand out.
const HOST_HEADER = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A Host header value that is a well-formed host (RFC 9110): a name or an IP literal, with an optional port. */
export function wellFormedHost(host: string): boolean {
  return HOST_HEADER.test(host);
}

export interface HostPolicy {
  /** SANDBOX_BIND: a loopback bind answers loopback names; a wider one any name unless names are configured. */
  bind: string;
  /** SANDBOX_PUBLIC_URL: its host is always answered. */
  publicUrl: string | null;
  /** SANDBOX_ALLOWED_HOSTS: more names, `*.suffix` for every subdomain of suffix. */
  allowedHosts: readonly string[];
}

/** Refuses a request's Host header (400 malformed, 421 not one of ours) or lets it through (null). */
export type HostCheck = (hostHeader: string) => AppError | null;

/** `[::1]:8025` → `::1`, `Example.COM:80` → `example.com`. */
function hostnameOf(hostHeader: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(hostHeader);
  return (bracketed ? bracketed[1]! : hostHeader.replace(/:\d+$/, '')).toLowerCase();
}

/**
 * An IP literal as a browser writes it in a Host header. Numeric forms other than dotted quads (`2130706433`) are
 * left to the name rules: a browser never sends them, it rewrites them to the dotted quad.
 */
function ipLiteral(hostname: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return ipaddr.IPv4.parse(hostname);
  if (hostname.includes(':') && ipaddr.IPv6.isValid(hostname)) return ipaddr.process(hostname);
  return null;
}

function namesMatch(pattern: string, hostname: string): boolean {
  return pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;
}

/**
 * The Host check for the policy, or null when every Host is answered: a server bound beyond loopback with neither
 * SANDBOX_PUBLIC_URL nor SANDBOX_ALLOWED_HOSTS is reached under names it cannot know.
 *
 * A rebinding page always sends its own domain as Host, never an IP literal, so IP literals are answered on wider
 * binds (probes and scrapers address pods and hosts by IP); a loopback bind answers only loopback ones.
 */
export function hostCheck(policy: HostPolicy): HostCheck | null {
  const loopbackOnly = isLoopbackBind(policy.bind);
  const named = [...(policy.publicUrl === null ? [] : [hostnameOf(new URL(policy.publicUrl).host)]), ...policy.allowedHosts];
  if (!loopbackOnly && named.length === 0) return null;
  const answered = (hostname: string): boolean => {
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
    if (named.some((pattern) => namesMatch(pattern, hostname))) return true;
    const ip = ipLiteral(hostname);
    return ip !== null && (!loopbackOnly || ip.range() === 'loopback');
  };
  return (hostHeader) => {
    if (!wellFormedHost(hostHeader)) return new AppError('invalid_request', `the Host header '${hostHeader.slice(0, 100)}' is not a valid host`);
    if (answered(hostnameOf(hostHeader))) return null;
    return new AppError('host_not_allowed', `this server does not answer to the Host '${hostHeader.slice(0, 100)}': it answers to ${loopbackOnly ? 'loopback names and addresses' : 'IP addresses, loopback names'}`
      + `${named.length > 0 ? ` and ${named.join(', ')}` : ''}; add the name to SANDBOX_ALLOWED_HOSTS if it is this server's`);
  };
}
