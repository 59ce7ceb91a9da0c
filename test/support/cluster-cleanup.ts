// Mocha root hook: after a cluster-profile run (in parallel mode, after each file its worker ran), removes every
// namespace the servers used from the shared services.
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { testProfile, usedNamespaces } from './profile.js';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    if (testProfile() !== 'cluster') return;
    this.timeout(300_000);
    for (const namespace of usedNamespaces) {
      await purgeClusterNamespace(loadConfig({ ...process.env, SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: namespace }));
      usedNamespaces.delete(namespace);
    }
  },
};
