// The fields of a message's header section, read without a MIME parser: for the header-only fallback of a cut-short
// analysis and for the envelope of an imported message.

/** The header section is read from at most this many bytes, so reading it has a ceiling too. */
export const HEADER_SCAN_BYTES = 1024 * 1024;

// RFC 5322 field names are printable ASCII but the colon; obsolete syntax allows white space before the colon.
export const FIELD_LINE = /^([\x21-\x39\x3b-\x7e]+)[ \t]*:/;

export interface HeaderField {
  /** Lower case. */
  name: string;
  /** Unfolded, as written (encoded-words not decoded). */
  value: string;
}

/** The fields in order, from the header section (through the line before the first empty one) within HEADER_SCAN_BYTES. */
export function headerFields(raw: Uint8Array): HeaderField[] {
  const scanned = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, HEADER_SCAN_BYTES));
  const ends = [scanned.indexOf('\n\n'), scanned.indexOf('\n\r\n')].filter((at) => at !== -1);
  const section = scanned.subarray(0, ends.length === 0 ? scanned.length : Math.min(...ends) + 1).toString('utf8');
  const fields: HeaderField[] = [];
  for (const line of section.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const match = FIELD_LINE.exec(line);
    if (match) fields.push({ name: match[1]!.toLowerCase(), value: line.slice(match[0].length) });
  }
  return fields;
}
