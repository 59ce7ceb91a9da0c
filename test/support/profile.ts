// Which profile a test run exercises: SANDBOX_TEST_PROFILE=cluster runs the same suites on Elasticsearch, MinIO and
// Redis. A test names its data by a temporary data dir; in the cluster profile that dir maps to a namespace of its own.
import { createHash } from 'node:crypto';

export type TestProfile = 'embedded' | 'cluster';

export function testProfile(): TestProfile {
  const value = process.env.SANDBOX_TEST_PROFILE ?? 'embedded';
  if (value !== 'embedded' && value !== 'cluster') throw new Error(`SANDBOX_TEST_PROFILE must be embedded or cluster, got '${value}'`);
  return value;
}

/** Namespaces this test process used, for the clean-up hook to remove from the shared services. */
export const usedNamespaces = new Set<string>();

/** Environment that points a server or admin CLI for `dataDir` at the profile under test (same dir, same data). */
export function profileEnv(dataDir: string): Record<string, string> {
  if (testProfile() === 'embedded') return {};
  const namespace = `test-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  usedNamespaces.add(namespace);
  return { SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: namespace };
}

/** A suite about the cluster profile's own adapters: it runs in cluster runs only, where its services are up. */
export function describeCluster(title: string, suite: (this: Mocha.Suite) => void): void {
  if (testProfile() === 'cluster') describe(title, suite);
}

/** A suite about the embedded profile alone (one process, SQLite): it runs in embedded runs only. */
export function describeEmbedded(title: string, suite: (this: Mocha.Suite) => void): void {
  if (testProfile() === 'embedded') describe(title, suite);
}
