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

/** A field of the header section with where its bytes are, so a copy of the message can leave it out. */
export interface HeaderFieldSpan extends HeaderField {
  /** The offset of its first byte and the offset after its last line's line break. */
  start: number;
  end: number;
}

/** The header section's fields in order, and where the body starts; null when the section does not end within HEADER_SCAN_BYTES. */
export interface HeaderSection {
  fields: HeaderFieldSpan[];
  bodyStart: number | null;
}

/**
 * The fields of the header section with their byte spans. A line that is not a field (nor a continuation) is kept as
 * a field with an empty name, so the spans cover the whole section.
 */
export function headerSection(raw: Uint8Array): HeaderSection {
  const scanned = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, HEADER_SCAN_BYTES)).toString('latin1');
  const fields: HeaderFieldSpan[] = [];
  let current: { start: number; end: number } | null = null;
  const close = () => {
    if (current === null) return;
    // Offsets are of bytes: latin1 maps each byte to one character; the value is read back as UTF-8 (RFC 6532).
    const text = Buffer.from(scanned.slice(current.start, current.end), 'latin1').toString('utf8').replace(/\r?\n$/, '').replace(/\r?\n(?=[ \t])/g, '');
    const match = FIELD_LINE.exec(text);
    fields.push({ name: match ? match[1]!.toLowerCase() : '', value: match ? text.slice(match[0].length) : text, ...current });
    current = null;
  };
  for (let at = 0; at < scanned.length;) {
    const newline = scanned.indexOf('\n', at);
    const end = newline === -1 ? scanned.length : newline + 1;
    const line = scanned.slice(at, end).replace(/\r?\n$/, '');
    if (line === '') {
      close();
      return { fields, bodyStart: newline === -1 ? null : end };
    }
    if ((line[0] === ' ' || line[0] === '\t') && current !== null) current.end = end;
    else {
      close();
      current = { start: at, end };
    }
    at = end;
  }
  close();
  // A message that is all header ends without an empty line; one cut off by the scan limit is not read.
  return { fields, bodyStart: raw.byteLength <= HEADER_SCAN_BYTES ? raw.byteLength : null };
}
