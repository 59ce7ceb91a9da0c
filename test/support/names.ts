// Name resolvers for tests of outbound requests: small gates and a short timeout, asking the given name servers
// (a test's own, see dns-server.ts) or, with none, the system's, which IP-literal and localhost targets never reach.
import { NameResolver } from '../../src/outbound/name-resolver.js';
import type { FairGateLimits } from '../../src/domain/fair-gate.js';

export function testNames(servers: string[] = [], gate: Partial<FairGateLimits> = {}): NameResolver {
  return new NameResolver({ servers, timeoutMs: 300, tries: 1, gate: { concurrency: 8, queueLimit: 16, perKeyLimit: 8, ...gate } });
}
