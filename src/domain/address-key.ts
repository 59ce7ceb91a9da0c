// The key a client's connections are counted under: an IPv4 address as it is, an IPv6 address by its prefix, since
// one IPv6 host is routinely given a whole /64 and could otherwise open each connection from an address of its own.
import ipaddr from 'ipaddr.js';

/** The prefix IPv6 addresses are counted by unless configured otherwise (SANDBOX_IPV6_PREFIX_BITS). */
export const DEFAULT_IPV6_PREFIX_BITS = 64;

/**
 * `address` as a socket reports it. An IPv4-mapped IPv6 address (a dual-stack listener's IPv4 client) counts as its
 * IPv4 address; anything that is not an IP address counts as itself.
 */
export function addressKey(address: string, ipv6PrefixBits: number): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  // The zone of a link-local address names an interface of ours, not a client: dropped with the host bits.
  const bytes = ipv6.toByteArray().map((byte, index) => {
    const kept = Math.max(0, Math.min(8, ipv6PrefixBits - index * 8));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixBits}`;
}
