// Removes one cluster-profile namespace (its indices, template, bucket and Redis keys) from the shared services, as the
// Node suites' clean-up does: `node purge-namespace.mjs <namespace>`, with the services' SANDBOX_* variables set.
// It runs the built server's own purge (dist/), so it needs no TypeScript loader.
import process from 'node:process';
import { loadConfig } from '../../../dist/src/config.js';
import { purgeClusterNamespace } from '../../../dist/src/storage/cluster/purge-namespace.js';

const namespace = process.argv[2];
if (!namespace) {
  process.stderr.write('usage: node purge-namespace.mjs <namespace>\n');
  process.exit(2);
}
await purgeClusterNamespace(loadConfig({ ...process.env, SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: namespace }));
