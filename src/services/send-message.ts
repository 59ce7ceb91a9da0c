// The HTTP send endpoint's work: build MIME with nodemailer's composer and capture it like an SMTP message.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { AppError } from '../errors.js';
import { normalizeTags } from '../domain/tags.js';
import type { Workspace } from '../domain/types.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import type { InboxService } from './inboxes.js';

interface Address { name?: string; email: string }

export interface SendRequest {
  from: Address;
  to: Address[];
  cc?: Address[];
  bcc?: Address[];
  reply_to?: Address[];
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  tags?: string[];
  attachments?: { filename: string; content_type?: string; content: string }[];
}

/** Headers the request's own fields define; setting them through `headers` would contradict those fields. */
const RESERVED_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'content-type', 'content-transfer-encoding', 'mime-version', 'content-disposition']);
const HEADER_NAME = /^[!-9;-~]+$/;
// A flat character class (no repeated group) so a 25 MiB attachment cannot exhaust the regex stack.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

const toAddress = (address: Address): Mail.Address => ({ name: address.name ?? '', address: address.email });

function checkedHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new AppError('invalid_request', `headers: '${name}' is not a valid header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new AppError('invalid_request', `headers: '${name}' is set by the request's own fields, not through headers`);
    if (/[\r\n]/.test(value)) throw new AppError('invalid_request', `headers: the value of '${name}' must not contain line breaks`);
  }
  return headers;
}

function decodeAttachment(content: string, index: number): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64_CHARS.test(compact)) throw new AppError('invalid_request', `attachments[${index}].content is not valid base64`);
  return Buffer.from(compact, 'base64');
}

export class SendService {
  constructor(
    private readonly inboxes: InboxService,
    private readonly pipeline: IngestPipeline,
    private readonly maxMessageBytes: number,
  ) {}

  /** Stores the composed message as if it arrived over SMTP; nothing is delivered. */
  async send(workspace: Workspace, inboxId: string, request: SendRequest): Promise<string> {
    const inbox = await this.inboxes.require(workspace.id, inboxId);
    const tags = normalizeTags(request.tags ?? []);
    const composer = new MailComposer({
      from: toAddress(request.from),
      to: request.to.map(toAddress),
      ...(request.cc ? { cc: request.cc.map(toAddress) } : {}),
      ...(request.bcc ? { bcc: request.bcc.map(toAddress) } : {}),
      ...(request.reply_to ? { replyTo: request.reply_to.map(toAddress) } : {}),
      subject: request.subject,
      ...(request.text === undefined ? {} : { text: request.text }),
      ...(request.html === undefined ? {} : { html: request.html }),
      headers: checkedHeaders(request.headers ?? {}),
      attachments: (request.attachments ?? []).map((attachment, index) => ({
        filename: attachment.filename,
        contentType: attachment.content_type ?? 'application/octet-stream',
        content: decodeAttachment(attachment.content, index),
      })),
    });
    const mime = composer.compile();
    // The composer leaves Bcc out of the headers; it only reaches the envelope, as over SMTP.
    const raw = await mime.build();
    if (raw.length > this.maxMessageBytes) {
      throw new AppError('message_too_large', `the composed message is ${raw.length} bytes, over the maximum of ${this.maxMessageBytes}`);
    }
    const recipients = [...new Set([...request.to, ...(request.cc ?? []), ...(request.bcc ?? [])].map((address) => address.email))];
    const record = await this.pipeline.ingest({ inbox, envelopeFrom: request.from.email, recipients, raw, tls: false, tags, channel: 'http' });
    return record.id;
  }
}
