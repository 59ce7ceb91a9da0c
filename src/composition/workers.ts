// The background phase of the server's wiring: webhook deliveries, the retention sweep, and the one-off sweep of blob
// folders an interrupted capture left behind.
import type { Config } from '../config.js';
import { RetentionWorker } from '../workers/retention.js';
import { sweepOrphanBlobs } from '../workers/orphan-blobs.js';
import type { Services } from './services.js';
import type { Teardown } from './teardown.js';

export async function startWorkers(config: Readonly<Config>, services: Services, teardown: Teardown): Promise<void> {
  const { backend, workspaces, deliveryWorker, log } = services;
  await deliveryWorker.start();
  teardown.add(() => deliveryWorker.stop());
  const retention = new RetentionWorker(backend, workspaces, log);
  retention.start(config.retentionSweepSeconds * 1000);
  teardown.add(() => retention.stop());
  const orphanSweep = sweepOrphanBlobs(backend).then(
    ({ removed, indexMissing }) => {
      if (removed > 0) log.warn({ removed }, 'removed message blob folders an interrupted capture left behind');
      if (indexMissing.length > 0) log.error({ workspaces: indexMissing }, 'the index knows none of these workspaces\' stored messages; run scripts/reindex to rebuild it');
    },
    (error: unknown) => log.error({ err: error }, 'sweeping orphaned blob folders failed'),
  );
  teardown.add(() => orphanSweep);
}
