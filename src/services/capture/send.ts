// The HTTP send endpoint's work: capture the message composed from the request (compose-message.ts, on a content
// worker) like an SMTP message.
import { AppError } from '../../errors.js';
import { normalizeTags } from '../../domain/tags.js';
import type { Workspace } from '../../domain/types.js';
import type { IngestPipeline } from '../../ingest/ingest-message.js';
import type { SendRequest } from '../../mime/compose-message.js';
import type { InboxService } from '../mail/inboxes.js';

export class SendService {
  constructor(
    private readonly inboxes: InboxService,
    private readonly pipeline: IngestPipeline,
    private readonly maxMessageBytes: number,
  ) {}

  /**
   * Stores the composed message as if it arrived over SMTP; nothing is delivered. `request` gives the envelope and
   * the tags (its attachments' contents are already in `raw`).
   */
  async send(workspace: Workspace, inboxId: string, request: SendRequest, raw: Buffer): Promise<string> {
    const inbox = await this.inboxes.require(workspace.id, inboxId);
    const tags = normalizeTags(request.tags ?? []);
    if (raw.length > this.maxMessageBytes) {
      throw new AppError('message_too_large', `the composed message is ${raw.length} bytes, over the maximum of ${this.maxMessageBytes}`);
    }
    // The composer leaves Bcc out of the headers; it only reaches the envelope, as over SMTP.
    const recipients = [...new Set([...request.to, ...(request.cc ?? []), ...(request.bcc ?? [])].map((address) => address.email))];
    const record = await this.pipeline.ingest({ inbox, envelopeFrom: request.from.email, recipients, raw, tls: false, tags, channel: 'http' });
    return record.id;
  }
}
