// The name lookups of outbound requests (checked links, linked stylesheets, webhooks) and the TXT records the
// authentication check reads (DKIM keys, DMARC policies, SPF records): asked of DNS by c-ares, which
// waits on sockets rather than on one of libuv's four threads as getaddrinfo does (those threads also run file system
// calls and scrypt, and getaddrinfo cannot be cancelled), each bounded by a timeout and a number of tries, and let in
// through one fair gate keyed by workspace, so a tenant whose links name black-hole name servers waits on its own
// lookups, not on everyone's.
import { Resolver } from 'node:dns/promises';
import type { Config } from '../config.js';
import { FairGate, GateRefusal, type FairGateLimits } from '../domain/fair-gate.js';

export interface NameResolverSettings {
  /** `ip` or `ip:port` (IPv6 as `[ip]:port`) of the name servers to ask; empty: the system's (/etc/resolv.conf). */
  servers: readonly string[];
  /** How long a name server has to answer one try. */
  timeoutMs: number;
  /** Tries per query before the name counts as not answered; a lookup takes at most timeoutMs × tries. */
  tries: number;
  /** Lookups in flight at once, waiting at once, and in flight and waiting per workspace. */
  gate: FairGateLimits;
}

type DnsConfig = Pick<Config, 'dnsServers' | 'dnsTimeoutMs' | 'dnsTries' | 'dnsLookups' | 'dnsLookupQueue' | 'dnsLookupsPerWorkspace'>;

/** The SANDBOX_DNS_* settings as a resolver takes them. */
export const nameResolverSettings = (config: DnsConfig): NameResolverSettings => ({
  servers: config.dnsServers,
  timeoutMs: config.dnsTimeoutMs,
  tries: config.dnsTries,
  gate: { concurrency: config.dnsLookups, queueLimit: config.dnsLookupQueue, perKeyLimit: config.dnsLookupsPerWorkspace },
});

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The error code of a lookup the gate did not let in: the workspace has its share in flight, or everyone's queue is full. */
export const LOOKUP_REFUSED = 'ELOOKUPREFUSED';

/** Why a name has no address to connect to; `code` is c-ares's (ENOTFOUND, ENODATA, ETIMEOUT...) or LOOKUP_REFUSED. */
export class NameLookupError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'NameLookupError';
  }
}

/** RFC 6761: `localhost` and the names under it are loopback, answered without asking DNS (c-ares does not read the hosts file). */
const LOOPBACK: readonly ResolvedAddress[] = Object.freeze([{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]);
const isLocalhost = (hostname: string): boolean => /^(.+\.)?localhost\.?$/i.test(hostname);

/** What a failed query's code says about the name, for a reader of a link check or a delivery record. */
const QUERY_FAILURES: Record<string, string> = {
  ENOTFOUND: 'does not exist',
  ETIMEOUT: 'got no answer from the name server in time',
  ESERVFAIL: 'could not be resolved (the name server failed)',
  EREFUSED: 'could not be resolved (the name server refused the query)',
  ECONNREFUSED: 'could not be resolved (no name server reachable)',
  ECANCELLED: 'was not resolved: the request was abandoned',
};

export class NameResolver {
  private readonly gate: FairGate;

  constructor(private readonly settings: NameResolverSettings) {
    this.gate = new FairGate(settings.gate);
  }

  /**
   * Every IPv4 and IPv6 address of `hostname`, looked up in `workspaceId`'s turn. A lookup still waiting or running
   * when `signal` aborts is abandoned, and its slot freed, as soon as it can be. Rejects with NameLookupError.
   */
  async resolve(hostname: string, workspaceId: string, signal?: AbortSignal): Promise<ResolvedAddress[]> {
    if (isLocalhost(hostname)) return [...LOOPBACK];
    return this.inTurn(hostname, workspaceId, () => this.queryAddresses(hostname, signal));
  }

  /**
   * The TXT records of `name`, each as the character strings it is made of, looked up in `workspaceId`'s turn with
   * the same limits as addresses. `localhost` and the names under it have none, without a query. Rejects with
   * NameLookupError (ENOTFOUND, ENODATA: the name has no TXT record).
   */
  async texts(name: string, workspaceId: string, signal?: AbortSignal): Promise<string[][]> {
    if (isLocalhost(name)) throw failure(name, 'ENOTFOUND');
    return this.inTurn(name, workspaceId, () => this.bounded(name, signal, async (resolver, overran) => {
      try {
        return await resolver.resolveTxt(name);
      } catch (error) {
        throw failure(name, overran() ? 'ETIMEOUT' : (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', 'TXT record');
      }
    }));
  }

  /** Gate and queues now, for operators' metrics and tests. */
  stats(): { running: number; waiting: number } {
    return this.gate.stats();
  }

  /** Runs a lookup of `name` once the gate lets it in for `workspaceId`; a refusal is a NameLookupError saying why. */
  private async inTurn<T>(name: string, workspaceId: string, lookup: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(workspaceId, lookup);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      const why = error.reason === 'key_full'
        ? `this workspace has as many name lookups in flight or waiting as it may (${this.settings.gate.perKeyLimit})`
        : `the queue of name lookups is full (${this.settings.gate.queueLimit} waiting)`;
      throw new NameLookupError(LOOKUP_REFUSED, `the lookup of ${name} was refused: ${why}; try again shortly`);
    }
  }

  /**
   * Queries on a resolver of their own, so that abandoning this lookup cancels its queries and no other's, all ended
   * within timeout × tries; `overran` tells the queries' failures apart from the time limit's.
   */
  private async bounded<T>(name: string, signal: AbortSignal | undefined, queries: (resolver: Resolver, overran: () => boolean) => Promise<T>): Promise<T> {
    if (signal?.aborted) throw failure(name, 'ECANCELLED');
    const resolver = new Resolver({ timeout: this.settings.timeoutMs, tries: this.settings.tries });
    if (this.settings.servers.length > 0) resolver.setServers(this.settings.servers);
    const cancel = () => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    // c-ares waits longer on each retry (twice the timeout on the second try): the lookup as a whole gets the
    // timeout once per try, so its limit is what the settings say.
    let overran = false;
    const limit = setTimeout(() => {
      overran = true;
      resolver.cancel();
    }, this.settings.timeoutMs * this.settings.tries);
    try {
      return await queries(resolver, () => overran);
    } finally {
      clearTimeout(limit);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** A and AAAA together: either family's addresses are enough; the name fails only when neither has one. */
  private queryAddresses(hostname: string, signal?: AbortSignal): Promise<ResolvedAddress[]> {
    return this.bounded(hostname, signal, async (resolver, overran) => {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const addresses: ResolvedAddress[] = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
      ];
      if (addresses.length > 0) return addresses;
      if (overran()) throw failure(hostname, 'ETIMEOUT');
      const codes = [v4, v6].map((settled) => (settled.status === 'rejected' ? (settled.reason as NodeJS.ErrnoException).code ?? 'EUNKNOWN' : 'ENODATA'));
      // The more telling of the two: a name server that never answered or failed says more than "no AAAA record".
      throw failure(hostname, codes.find((code) => code !== 'ENODATA' && code !== 'ENOTFOUND') ?? codes.find((code) => code === 'ENOTFOUND') ?? 'ENODATA');
    });
  }
}

/** `sought`: what a name that exists but has no records of the type asked for lacks. */
const failure = (hostname: string, code: string, sought = 'address'): NameLookupError =>
  new NameLookupError(code, `the name ${hostname} ${code === 'ENODATA' ? `has no ${sought}` : QUERY_FAILURES[code] ?? `could not be resolved (${code})`}`);
