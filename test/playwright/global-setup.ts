// The Playwright suite's global setup: a real mail-sandbox server (built dist/, the profile SANDBOX_TEST_PROFILE names,
// as the mocha suites start it) with a workspace of its own, handed to the tests the way the fixture's users configure
// it: MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY, which Playwright's workers inherit. The teardown it returns stops the
// server and removes what it stored.
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { createWorkspace } from '../support/admin.js';
import { ensureChromium } from '../support/browser.js';
import { testProfile, usedNamespaces } from '../support/profile.js';
import { startServer } from '../support/server.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureChromium();
  const server = await startServer();
  const { key } = createWorkspace(server.dataDir, 'Playwright fixture');
  process.env.MAIL_SANDBOX_URL = server.httpUrl;
  process.env.MAIL_SANDBOX_KEY = key.key;
  console.log(`mail-sandbox for the Playwright suite: ${server.httpUrl} (${testProfile()} profile)`);
  return async () => {
    await server.stop();
    if (testProfile() === 'cluster') {
      for (const namespace of usedNamespaces) {
        await purgeClusterNamespace(loadConfig({ ...process.env, SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: namespace }));
      }
    }
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  };
}
