// Rebuilds every message's search document from its raw blob and capture envelope (the raw message is the
// source of truth): after a mapping change, a lost index, or to move to a new index behind the alias.
import type { Backend } from '../../storage/ports.js';
import type { TagRuleService } from './tag-rules.js';
import { envelopeBlobKey, messageBlobFolder, rawBlobKey } from '../../domain/blob-keys.js';
import { decodeEnvelope, messageRecord, type RecordSource } from '../../ingest/capture-envelope.js';
import type { ContentPool } from '../../content/content-pool.js';
import { matchRules } from '../../query/match-rules.js';

export interface ReindexReport {
  /** Documents rewritten from their blobs. */
  rebuilt: number;
  /** Of those, documents the index did not have. */
  recovered: number;
  /** Message folders left alone, and why. */
  skipped: { folder: string; reason: string }[];
}

export async function reindexMessages(
  backend: Pick<Backend, 'metadata' | 'messages' | 'blobs'>,
  tagRules: Pick<TagRuleService, 'rulesFor'>,
  content: Pick<ContentPool, 'analyze'>,
  onProgress: (report: ReindexReport) => void = () => undefined,
): Promise<ReindexReport> {
  const { metadata, messages, blobs } = backend;
  const report: ReindexReport = { rebuilt: 0, recovered: 0, skipped: [] };
  for (const workspaceId of await blobs.listFolders('messages/')) {
    for (const id of await blobs.listFolders(`messages/${workspaceId}/`)) {
      const folder = messageBlobFolder(workspaceId, id);
      const skip = (reason: string) => report.skipped.push({ folder, reason });
      const raw = await blobs.get(rawBlobKey(workspaceId, id));
      if (!raw) {
        skip('no raw.eml');
        continue;
      }
      const existing = await messages.get(workspaceId, id);
      let source: RecordSource;
      if (existing) {
        // What users changed since capture (read state, tags) and the commit time live only in the document: keep them.
        source = { ...existing };
      } else {
        const envelopeBytes = await blobs.get(envelopeBlobKey(workspaceId, id));
        const envelope = envelopeBytes && decodeEnvelope(envelopeBytes);
        if (!envelope) {
          skip('no index document and no readable envelope.json');
          continue;
        }
        if (!(await metadata.getInbox(workspaceId, envelope.inbox_id))) {
          skip(`inbox ${envelope.inbox_id} no longer exists`);
          continue;
        }
        source = {
          id, workspaceId, inboxId: envelope.inbox_id, receivedAt: new Date(envelope.received_at), envelopeFrom: envelope.envelope_from,
          recipients: envelope.recipients, tls: envelope.tls, rawKey: rawBlobKey(workspaceId, id), size: raw.length, read: false, tags: envelope.sender_tags,
        };
      }
      const record = messageRecord(source, await content.analyze(workspaceId, raw));
      // An operator's rebuild, in its own process: a recovered message gets every rule's tags, with no budget.
      if (!existing) record.tags = [...new Set([...record.tags, ...matchRules(await tagRules.rulesFor(workspaceId, record.inboxId), record, Infinity).tags])];
      await messages.restore(record);
      report.rebuilt++;
      if (!existing) report.recovered++;
      if (report.rebuilt % 1000 === 0) onProgress(report);
    }
  }
  return report;
}
