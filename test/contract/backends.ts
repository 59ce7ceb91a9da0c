// The storage backends every contract suite runs against: the embedded profile by default, the cluster profile
// (real Elasticsearch, MinIO and Redis) when SANDBOX_TEST_PROFILE=cluster.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { openBackend, type BackendTuning } from '../../src/storage/index.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import type { Backend } from '../../src/storage/ports.js';
import { testProfile } from '../support/profile.js';

export interface BackendUnderTest {
  backend: Backend;
  dispose(): Promise<void>;
}

interface BackendFactory {
  profile: string;
  /** `env` adds settings (SANDBOX_*) to the backend's configuration. */
  open(env?: Record<string, string>): Promise<BackendUnderTest>;
}

function embedded(profile: string, tuning: BackendTuning = {}): BackendFactory {
  return {
    profile,
    async open(env = {}) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-contract-'));
      const backend = await openBackend(loadConfig({ ...env, SANDBOX_DATA_DIR: dataDir }), { tuning });
      return {
        backend,
        async dispose() {
          await backend.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** Each opening gets a namespace of its own on the shared services, removed again by dispose. */
const cluster: BackendFactory = {
  profile: 'cluster',
  async open(env = {}) {
    const config = loadConfig({ ...process.env, ...env, SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: `test-contract-${randomBytes(4).toString('hex')}` });
    const backend = await openBackend(config);
    return {
      backend,
      async dispose() {
        await backend.close();
        await purgeClusterNamespace(config);
      },
    };
  },
};

export const backendFactories: BackendFactory[] = testProfile() === 'cluster' ? [cluster] : [embedded('embedded')];

/** Every query plan a backend can choose, forced one at a time, for the suites about search results. */
export const searchPlanFactories: BackendFactory[] = testProfile() === 'cluster' ? [cluster] : [
  ...backendFactories,
  embedded('embedded, pages always walk the inbox', { embeddedSearch: { indexDrivenBelow: 0 } }),
  embedded('embedded, pages always start from index hits', { embeddedSearch: { indexDrivenBelow: Number.MAX_SAFE_INTEGER } }),
];
