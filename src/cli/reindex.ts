// `scripts/reindex`: rebuilds the message index from the raw blobs, for whichever profile SANDBOX_* selects.
import { ConfigError, loadConfig } from '../config.js';
import { openBackend } from '../storage/index.js';
import { InboxService } from '../services/mail/inboxes.js';
import { TagRuleService } from '../services/mail/tag-rules.js';
import { reindexMessages } from '../services/mail/reindex-messages.js';
import { contentPoolFor } from '../content/content-pool.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // A reindex is the upgrade step for a search index of an older format; the servers refuse one until it has run.
  const backend = await openBackend(config, { onError: (error, context) => console.error(`${context}: ${(error as Error).message}`), upgradeSearchIndex: true });
  const content = contentPoolFor(config);
  try {
    const tagRules = new TagRuleService(backend.metadata, new InboxService(backend));
    const report = await reindexMessages(backend, tagRules, content, (progress) => console.error(`reindex: ${progress.rebuilt} documents rebuilt so far`));
    console.log(JSON.stringify({ profile: config.profile, namespace: config.namespace, ...report }, null, 2));
  } finally {
    await content.close();
    await backend.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : `reindex failed: ${(error as Error).message}`);
  process.exit(1);
});
