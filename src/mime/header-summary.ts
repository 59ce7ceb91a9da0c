// The cheap fallback when full analysis of a message failed: the few header fields that make it findable.
import libmime from 'libmime';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { headerFields } from './header-fields.js';
import { mailboxKeys, noHeaderAddresses } from '../domain/mailbox-key.js';
import type { HeaderAddressKeys } from '../domain/types.js';

export interface HeaderSummary {
  from: string;
  to: string;
  cc: string;
  bcc: string;
  replyTo: string;
  subject: string;
  messageId: string;
  headerAddresses: HeaderAddressKeys;
}

/** What a message with none of the fields reads as. */
const emptyHeaderSummary = (): HeaderSummary => ({
  from: '', to: '', cc: '', bcc: '', replyTo: '', subject: '', messageId: '', headerAddresses: noHeaderAddresses(),
});

const ADDRESS_FIELDS: readonly string[] = ['from', 'to', 'cc', 'bcc', 'replyTo'] satisfies (keyof HeaderAddressKeys)[];
const isAddressField = (field: string): field is keyof HeaderAddressKeys => ADDRESS_FIELDS.includes(field);

const WANTED: Record<string, keyof Omit<HeaderSummary, 'headerAddresses'>> = {
  from: 'from', to: 'to', cc: 'cc', bcc: 'bcc', 'reply-to': 'replyTo', subject: 'subject', 'message-id': 'messageId',
};

function decoded(value: string): string {
  try {
    return libmime.decodeWords(value).trim();
  } catch {
    return value.trim();
  }
}

/**
 * The first From, To, Cc, Bcc, Reply-To, Subject and Message-ID of the header section, unfolded and with encoded-words
 * decoded, and the keys of the addresses the first of each address field names.
 */
export function headerSummary(raw: Uint8Array): HeaderSummary {
  const summary = emptyHeaderSummary();
  const chosen: Partial<Record<keyof HeaderAddressKeys, string>> = {};
  for (const { name, value } of headerFields(raw)) {
    const field = WANTED[name];
    if (!field || summary[field] !== '') continue;
    summary[field] = decoded(value);
    if (isAddressField(field)) chosen[field] = value;
  }
  for (const [field, value] of Object.entries(chosen) as [keyof HeaderAddressKeys, string][]) {
    summary.headerAddresses[field] = mailboxKeys(addressparser(value, { flatten: true }).map((entry) => entry.address));
  }
  return summary;
}
