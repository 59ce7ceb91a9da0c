// The SMTP envelope an imported message would have had, read from its header section (it has no envelope of its own).
import addressparser from 'nodemailer/lib/addressparser/index.js';

export interface HeaderEnvelope {
  /** Return-Path's address ('' for the null sender `<>`), else the first From address, else ''. */
  envelopeFrom: string;
  /** To, Cc, Bcc, X-Original-To and Delivered-To addresses, first spelling of each kept, at most `maxRecipients`. */
  recipients: string[];
}

const RECIPIENT_FIELDS = new Set(['to', 'cc', 'bcc', 'x-original-to', 'delivered-to']);
// RFC 5322 field names are printable ASCII but the colon; obsolete syntax allows white space before the colon.
const FIELD_LINE = /^([\x21-\x39\x3b-\x7e]+)[ \t]*:/;

/** The header section's text: through the line before the first empty one, or all of it when there is no body. */
function headerSection(raw: Buffer): string {
  const ends = [raw.indexOf('\n\n'), raw.indexOf('\n\r\n')].filter((at) => at !== -1);
  return raw.subarray(0, ends.length === 0 ? raw.length : Math.min(...ends) + 1).toString('utf8');
}

/** Whether the bytes open with a header field, which anything meant as an email does; a stray file does not. */
export function opensWithHeaderField(raw: Buffer): boolean {
  const firstLine = raw.subarray(0, Math.min(raw.length, 1000)).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  return FIELD_LINE.test(firstLine);
}

/** Header fields by lower-case name, unfolded, in order. */
function fields(raw: Buffer): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  for (const line of headerSection(raw).replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const match = FIELD_LINE.exec(line);
    if (match) found.push({ name: match[1]!.toLowerCase(), value: line.slice(match[0].length) });
  }
  return found;
}

const addresses = (value: string): string[] => addressparser(value, { flatten: true }).map((entry) => entry.address.trim());

export function headerEnvelope(raw: Buffer, maxRecipients: number): HeaderEnvelope {
  let returnPath: string | null = null;
  let from: string | null = null;
  const recipients = new Map<string, string>();
  for (const { name, value } of fields(raw)) {
    // The topmost Return-Path is the one the final delivery wrote.
    if (name === 'return-path' && returnPath === null) returnPath = addresses(value)[0] ?? '';
    else if (name === 'from' && from === null) from = addresses(value).find((address) => address !== '') ?? null;
    else if (RECIPIENT_FIELDS.has(name)) {
      for (const address of addresses(value)) if (address !== '' && !recipients.has(address.toLowerCase())) recipients.set(address.toLowerCase(), address);
    }
  }
  return { envelopeFrom: returnPath ?? from ?? '', recipients: [...recipients.values()].slice(0, maxRecipients) };
}
