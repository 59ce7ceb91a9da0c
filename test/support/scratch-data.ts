// What a scratch server stored, removed once it has stopped: the benches and scripts start their own servers on
// either profile and leave nothing behind.
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { profileEnv, testProfile } from './profile.js';

/** Removes the data folder of a stopped server and, on the cluster profile, its namespace in the services. */
export async function removeScratchData(dataDir: string): Promise<void> {
  if (testProfile() === 'cluster') await purgeClusterNamespace(loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) }));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
