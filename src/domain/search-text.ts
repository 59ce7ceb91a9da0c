// The one normalisation behind substring search: Unicode lower case, whitespace runs as one space.
// Stored search columns, query needles and the in-memory matcher all go through it, so they agree.
import type { HeaderAddressKeys, MessageRecord, SearchFields } from './types.js';
import { mailboxKey, mailboxKeys, unitedKeys } from './mailbox-key.js';

/** Separates values inside one search field so a needle never matches across two of them. */
export const FIELD_SEPARATOR = '\u001f';

// Control characters other than whitespace carry no meaning in a search, and removing them keeps the separator unforgeable.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function normalizeSearchText(text: string): string {
  return text.replace(CONTROL, '').replace(/\s+/gu, ' ').toLowerCase();
}

const joinValues = (values: string[]) => values.map(normalizeSearchText).join(FIELD_SEPARATOR);

/** A message's body as search reads it: its text part and its HTML's text, each normalised. */
export const searchBody = (textBody: string, htmlText: string): string => joinValues([textBody, htmlText]);

/**
 * What search reads of a message's header fields and envelope; Bcc and Reply-To are read for search alone, and the
 * header fields' address keys come from where the message was parsed.
 */
export type SearchSource = Pick<MessageRecord, 'subject' | 'from' | 'envelopeFrom' | 'to' | 'cc' | 'recipients' | 'messageId'> & {
  bcc: string;
  replyTo: string;
  headerAddresses: HeaderAddressKeys;
};

/**
 * The search fields of a message whose body searchBody has already read (where its parse ran, in a content worker).
 * The to, cc and bcc fields each hold values of `recipients`, so the SQLite trigram index can narrow a search of
 * one of them by that column. An envelope recipient is blind (bcc) unless a To or Cc address is the same mailbox.
 */
export function searchFields(message: SearchSource, body: string): SearchFields {
  const headers = message.headerAddresses;
  const named = new Set([...headers.to, ...headers.cc]);
  const namedText = normalizeSearchText(`${message.to}\n${message.cc}`);
  const blind: string[] = [];
  const blindKeys: string[] = [];
  for (const recipient of message.recipients) {
    const key = mailboxKey(recipient);
    if (key === null ? namedText.includes(normalizeSearchText(recipient)) : named.has(key)) continue;
    blind.push(recipient);
    if (key !== null) blindKeys.push(key);
  }
  const bcc = joinValues([message.bcc, ...blind].filter((value) => value !== ''));
  return {
    subject: normalizeSearchText(message.subject),
    sender: joinValues([message.from, message.envelopeFrom]),
    recipients: joinValues([message.to, message.cc, message.bcc, ...message.recipients]),
    body,
    to: normalizeSearchText(message.to),
    cc: normalizeSearchText(message.cc),
    bcc,
    replyTo: normalizeSearchText(message.replyTo),
    messageId: normalizeSearchText(message.messageId),
    addresses: {
      from: headers.from,
      envelopeFrom: mailboxKeys([message.envelopeFrom]),
      to: headers.to,
      cc: headers.cc,
      bcc: unitedKeys(headers.bcc, blindKeys),
      replyTo: headers.replyTo,
    },
  };
}
