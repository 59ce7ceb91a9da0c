// The send endpoint's message, from its JSON body: parsed, checked and built as MIME with nodemailer's composer. It
// runs on a content worker, since a body may carry 25 MB of base64; the event loop only validates the outline.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { components } from '../contract/api-types.js';
import { fromMailpitSend, mailpitOutline, MailpitSendRefusal, type MailpitSendRequest } from './mailpit-send.js';

type Address = components['schemas']['Address'];
export type SendRequest = components['schemas']['SendRequest'];

/** Whose send request a body is: this server's (openapi.yaml) or Mailpit's (mailpit-api.yaml). */
export type SendDialect = 'sandbox' | 'mailpit';

/** Why a body made no message: not JSON at all, or JSON whose fields cannot be composed. */
export interface ComposeRefusal {
  code: 'invalid_json' | 'invalid_request';
  message: string;
}

/**
 * What the event loop gets back: the body with every attachment's content left out (validated there against the
 * contract, which asks only that content be a string), and the message, or why there is none.
 */
export interface ComposedBody {
  outline: unknown;
  composed: { raw: Uint8Array } | { refused: ComposeRefusal };
}

/** Headers the request's own fields define; setting them through `headers` would contradict those fields. */
const RESERVED_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'content-type', 'content-transfer-encoding', 'mime-version', 'content-disposition']);
const HEADER_NAME = /^[!-9;-~]+$/;
// A flat character class (no repeated group) so a 25 MiB attachment cannot exhaust the regex stack.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

class InvalidField extends Error {}

const toAddress = (address: Address): Mail.Address => ({ name: address.name ?? '', address: address.email });

function checkedHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new InvalidField(`headers: '${name}' is not a valid header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new InvalidField(`headers: '${name}' is set by the request's own fields, not through headers`);
    if (/[\r\n]/.test(value)) throw new InvalidField(`headers: the value of '${name}' must not contain line breaks`);
  }
  return headers;
}

function decodeAttachment(content: string, index: number): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64_CHARS.test(compact)) throw new InvalidField(`attachments[${index}].content is not valid base64`);
  return Buffer.from(compact, 'base64');
}

/** The body with attachments' contents emptied: what the contract checks, without copying megabytes back. */
function outlineOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as SendRequest).attachments)) return body;
  const attachments = (body as SendRequest).attachments!.map((attachment: unknown) =>
    typeof attachment === 'object' && attachment !== null && typeof (attachment as { content?: unknown }).content === 'string' ? { ...attachment, content: '' } : attachment);
  return { ...body, attachments };
}

/** The MIME message of a request the contract accepts; Bcc reaches only the envelope, as over SMTP. */
export async function composeMessage(request: SendRequest): Promise<Buffer> {
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
  return composer.compile().build();
}

/**
 * Parses a send body and composes its message. A body the contract would refuse may fail to compose in any way;
 * the event loop validates the outline first, so such a body is answered with what the contract says of it.
 */
export async function composeFromJson(body: Buffer, dialect: SendDialect = 'sandbox'): Promise<ComposedBody> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { outline: undefined, composed: { refused: { code: 'invalid_json', message: `the body is not valid JSON: ${(error as Error).message}` } } };
  }
  const outline = dialect === 'mailpit' ? mailpitOutline(parsed) : outlineOf(parsed);
  try {
    const request = dialect === 'mailpit' ? fromMailpitSend(parsed as MailpitSendRequest) : parsed as SendRequest;
    return { outline, composed: { raw: await composeMessage(request) } };
  } catch (error) {
    const message = error instanceof InvalidField || error instanceof MailpitSendRefusal ? error.message : `the message could not be composed: ${(error as Error).message}`;
    return { outline, composed: { refused: { code: 'invalid_request', message } } };
  }
}
