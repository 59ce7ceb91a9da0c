// A Mailpit send request (POST /api/v1/send, mailpit-api.yaml) in the terms of this server's own send request
// (openapi.yaml's SendRequest), so that one composer builds both; pure, for the content worker and the event loop alike.
import type { components as SandboxComponents } from '../contract/api-types.js';
import type { components as MailpitComponents } from '../contract/mailpit-api-types.js';

type SandboxSendRequest = SandboxComponents['schemas']['SendRequest'];
type SandboxAddress = SandboxComponents['schemas']['Address'];
export type MailpitSendRequest = MailpitComponents['schemas']['SendRequest'];
type MailpitAddress = MailpitComponents['schemas']['SendAddress'];

/** A Mailpit send request this server cannot express; its message names the Mailpit field. */
export class MailpitSendRefusal extends Error {}

const address = ({ Email, Name }: MailpitAddress): SandboxAddress => ({ email: Email.trim(), ...(Name ? { name: Name } : {}) });

/**
 * The equivalent request. Mailpit's optional fields that may come as null (Go's encoder writes empty lists so) mean
 * the same as left out; a Mailpit ContentType may be left empty for "detect it", which here is the default type.
 */
export function fromMailpitSend(request: MailpitSendRequest): SandboxSendRequest {
  const to = (request.To ?? []).map(address);
  const [first, ...more] = to;
  if (!first) throw new MailpitSendRefusal('To: at least one recipient is needed (this server composes the To header from it)');
  if (/[\r\n]/.test(request.Subject ?? '')) throw new MailpitSendRefusal('Subject: must not contain line breaks');
  const attachments = (request.Attachments ?? []).map((attachment, index) => {
    const type = attachment.ContentType?.trim() ?? '';
    if (/[\r\n]/.test(type)) throw new MailpitSendRefusal(`Attachments[${index}].ContentType: must not contain line breaks`);
    return { filename: attachment.Filename, content: attachment.Content, ...(type === '' ? {} : { content_type: type }) };
  });
  return {
    from: address(request.From),
    to: [first, ...more],
    ...(request.Cc?.length ? { cc: request.Cc.map(address) } : {}),
    ...(request.Bcc?.length ? { bcc: request.Bcc.map((email) => ({ email: email.trim() })) } : {}),
    ...(request.ReplyTo?.length ? { reply_to: request.ReplyTo.map(address) } : {}),
    subject: request.Subject ?? '',
    ...(request.Text === undefined ? {} : { text: request.Text }),
    ...(request.HTML === undefined ? {} : { html: request.HTML }),
    ...(request.Headers ? { headers: request.Headers } : {}),
    ...(request.Tags?.length ? { tags: request.Tags } : {}),
    ...(attachments.length === 0 ? {} : { attachments }),
  };
}

/** The body with attachments' contents emptied: what the event loop validates, without copying megabytes back. */
export function mailpitOutline(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as MailpitSendRequest).Attachments)) return body;
  const attachments = (body as { Attachments: unknown[] }).Attachments.map((attachment) =>
    typeof attachment === 'object' && attachment !== null && typeof (attachment as { Content?: unknown }).Content === 'string' ? { ...attachment, Content: '' } : attachment);
  return { ...body, Attachments: attachments };
}
