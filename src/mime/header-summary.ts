// The cheap fallback when full analysis of a message failed: the few header fields that make it findable.
import libmime from 'libmime';

export interface HeaderSummary {
  from: string;
  to: string;
  cc: string;
  subject: string;
  messageId: string;
}

/** The header section is read from at most this many bytes, so the fallback's cost has a ceiling too. */
export const HEADER_SCAN_BYTES = 1024 * 1024;

const WANTED: Record<string, keyof HeaderSummary> = { from: 'from', to: 'to', cc: 'cc', subject: 'subject', 'message-id': 'messageId' };

function decoded(value: string): string {
  try {
    return libmime.decodeWords(value).trim();
  } catch {
    return value.trim();
  }
}

/** The first From, To, Cc, Subject and Message-ID of the header section, unfolded and with encoded-words decoded. */
export function headerSummary(raw: Uint8Array): HeaderSummary {
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, HEADER_SCAN_BYTES)).toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const section = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n(?=[ \t])/g, '');
  const summary: HeaderSummary = { from: '', to: '', cc: '', subject: '', messageId: '' };
  for (const line of section.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = WANTED[line.slice(0, colon).trim().toLowerCase()];
    if (field && summary[field] === '') summary[field] = decoded(line.slice(colon + 1));
  }
  return summary;
}
