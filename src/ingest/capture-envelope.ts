// The capture envelope: the facts about a message that its raw bytes do not hold, stored as JSON beside them.
// With the raw message it is enough to rebuild the message's search document (scripts/reindex).
import type { MessageRecord } from '../domain/types.js';
import type { MessageAnalysis } from '../mime/parse-email.js';
import { searchFields } from '../domain/search-text.js';

export interface CaptureEnvelope {
  version: 1;
  inbox_id: string;
  envelope_from: string;
  recipients: string[];
  tls: boolean;
  /** Tags the sender gave (HTTP send), before tag rules added theirs. */
  sender_tags: string[];
  /** When capture began; the index keeps the commit time, a few milliseconds later. */
  received_at: string;
}

export function encodeEnvelope(envelope: CaptureEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope));
}

/** Parses a stored envelope; null when it is not one this version wrote. */
export function decodeEnvelope(bytes: Buffer): CaptureEnvelope | null {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<CaptureEnvelope>;
    const valid = value.version === 1 && typeof value.inbox_id === 'string' && typeof value.envelope_from === 'string'
      && Array.isArray(value.recipients) && value.recipients.every((r) => typeof r === 'string') && typeof value.tls === 'boolean'
      && Array.isArray(value.sender_tags) && value.sender_tags.every((t) => typeof t === 'string')
      && typeof value.received_at === 'string' && !Number.isNaN(Date.parse(value.received_at));
    return valid ? (value as CaptureEnvelope) : null;
  } catch {
    return null;
  }
}

/** What a document takes from the capture (or from the document it replaces) rather than from the parsed bytes. */
export type RecordSource = Pick<MessageRecord, 'id' | 'workspaceId' | 'inboxId' | 'receivedAt' | 'envelopeFrom' | 'recipients' | 'tls' | 'rawKey' | 'size' | 'read' | 'tags'>;

/** The one way a message's index document is derived from what was parsed out of its bytes and its envelope. */
export function messageRecord(source: RecordSource, parsed: MessageAnalysis): MessageRecord {
  return {
    id: source.id,
    workspaceId: source.workspaceId,
    inboxId: source.inboxId,
    receivedAt: source.receivedAt,
    envelopeFrom: source.envelopeFrom,
    recipients: source.recipients,
    from: parsed.from,
    to: parsed.to,
    cc: parsed.cc,
    subject: parsed.subject,
    messageId: parsed.messageId,
    size: source.size,
    hasText: parsed.hasText,
    hasHtml: parsed.hasHtml,
    attachmentCount: parsed.attachmentCount,
    inlineCount: parsed.inlineCount,
    linkCount: parsed.linkCount,
    snippet: parsed.snippet,
    codes: parsed.codes,
    linkDetails: parsed.linkDetails,
    tls: source.tls,
    parseError: parsed.parseError,
    analysisCutShort: parsed.analysisCutShort,
    read: source.read,
    tags: source.tags,
    rawKey: source.rawKey,
    search: searchFields({ ...parsed, envelopeFrom: source.envelopeFrom, recipients: source.recipients }, parsed.searchBody),
  };
}
