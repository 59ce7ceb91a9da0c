// The cheap fallback when full analysis of a message failed: the few header fields that make it findable.
import libmime from 'libmime';
import { headerFields } from './header-fields.js';

export interface HeaderSummary {
  from: string;
  to: string;
  cc: string;
  bcc: string;
  replyTo: string;
  subject: string;
  messageId: string;
}

const WANTED: Record<string, keyof HeaderSummary> = {
  from: 'from', to: 'to', cc: 'cc', bcc: 'bcc', 'reply-to': 'replyTo', subject: 'subject', 'message-id': 'messageId',
};

function decoded(value: string): string {
  try {
    return libmime.decodeWords(value).trim();
  } catch {
    return value.trim();
  }
}

/** The first From, To, Cc, Bcc, Reply-To, Subject and Message-ID of the header section, unfolded and with encoded-words decoded. */
export function headerSummary(raw: Uint8Array): HeaderSummary {
  const summary: HeaderSummary = { from: '', to: '', cc: '', bcc: '', replyTo: '', subject: '', messageId: '' };
  for (const { name, value } of headerFields(raw)) {
    const field = WANTED[name];
    if (field && summary[field] === '') summary[field] = decoded(value);
  }
  return summary;
}
