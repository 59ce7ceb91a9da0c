// The SMTP envelope an imported message would have had, read from its header section (it has no envelope of its own).
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { FIELD_LINE, headerFields } from './header-fields.js';

export interface HeaderEnvelope {
  /** Return-Path's address ('' for the null sender `<>`), else the first From address, else ''. */
  envelopeFrom: string;
  /** To, Cc, Bcc, X-Original-To and Delivered-To addresses, first spelling of each kept, at most `maxRecipients`. */
  recipients: string[];
}

const RECIPIENT_FIELDS = new Set(['to', 'cc', 'bcc', 'x-original-to', 'delivered-to']);

/** Whether the bytes open with a header field, which anything meant as an email does; a stray file does not. */
export function opensWithHeaderField(raw: Buffer): boolean {
  const firstLine = raw.subarray(0, Math.min(raw.length, 1000)).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  return FIELD_LINE.test(firstLine);
}

const addresses = (value: string): string[] => addressparser(value, { flatten: true }).map((entry) => entry.address.trim());

export function headerEnvelope(raw: Buffer, maxRecipients: number): HeaderEnvelope {
  let returnPath: string | null = null;
  let from: string | null = null;
  const recipients = new Map<string, string>();
  for (const { name, value } of headerFields(raw)) {
    // The topmost Return-Path is the one the final delivery wrote.
    if (name === 'return-path' && returnPath === null) returnPath = addresses(value)[0] ?? '';
    else if (name === 'from' && from === null) from = addresses(value).find((address) => address !== '') ?? null;
    else if (RECIPIENT_FIELDS.has(name)) {
      for (const address of addresses(value)) if (address !== '' && !recipients.has(address.toLowerCase())) recipients.set(address.toLowerCase(), address);
    }
  }
  return { envelopeFrom: returnPath ?? from ?? '', recipients: [...recipients.values()].slice(0, maxRecipients) };
}
