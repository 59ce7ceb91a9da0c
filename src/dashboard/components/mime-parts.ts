// The raw message cut into what the Source view shows (source-view.tsx): header blocks, multipart boundary lines, part
// bodies and the text around them, as offsets into the raw text, read from the Content-Type headers' boundaries. The
// segments are contiguous and cover the text exactly, so showing them in order shows the message byte for byte. It is
// a viewer's parser, not a mail client's: it decodes nothing, accepts CRLF or LF line ends, falls back to plain text
// where the structure is broken (a boundary that never occurs, a part without headers, garbage), never throws, and
// stays linear in the text's length whatever it is given.

export type SegmentKind = 'headers' | 'boundary' | 'body' | 'text';

export interface Segment {
  /**
   * headers: an entity's header block with the blank line that ends it; boundary: a delimiter line of a multipart;
   * body: a part's body that is not itself split; text: a multipart's preamble or epilogue, or what could not be read.
   */
  kind: SegmentKind;
  /** Offsets into the raw text: the segment is text.slice(start, end). */
  start: number;
  end: number;
  /** 0 for the message's own headers and body, one more inside each multipart or attached message. */
  depth: number;
  /** For headers and bodies: the entity's media type (lower case, `text/plain` when it says none). */
  contentType?: string;
  /** For headers and bodies: its Content-Transfer-Encoding (lower case, `7bit` when it says none). */
  encoding?: string;
}

export interface SplitLimits {
  /** Multiparts nested deeper than this are shown as one body. */
  maxDepth: number;
  /** Past this many segments the rest of the message is one text segment. */
  maxSegments: number;
}

const DEFAULT_LIMITS: SplitLimits = { maxDepth: 24, maxSegments: 4000 };
/** Header values kept for reading the structure (Content-Type, Content-Transfer-Encoding): longer ones are cut. */
const MAX_HEADER_VALUE = 8192;
/** RFC 2046 allows 70; real mail stays well under this. */
const MAX_BOUNDARY = 200;

/** A header field's name and colon at the start of a line (RFC 5322 ftext, with whitespace before the colon tolerated). */
const FIELD_NAME = /([!-9;-~]+)[ \t]*:/y;

interface Context {
  text: string;
  limits: SplitLimits;
  out: Segment[];
}

/** Where `needle` first occurs in text[from, to), or -1; the search never looks past `to`. */
function find(text: string, needle: string, from: number, to: number): number {
  if (to - from < needle.length) return -1;
  const found = text.slice(from, to).indexOf(needle);
  return found === -1 ? -1 : from + found;
}

/** The offset just after the line that starts at `from` (after its LF), or `to` for the last line. */
function lineEnd(text: string, from: number, to: number): number {
  const newline = find(text, '\n', from, to);
  return newline === -1 ? to : newline + 1;
}

/** Whether the line from `from` to `end` (its LF included, if any) holds nothing but its line end. */
function isBlankLine(text: string, from: number, end: number): boolean {
  const length = end - from;
  if (length === 0) return true;
  if (length === 1) return text[from] === '\n' || text[from] === '\r';
  return length === 2 && text[from] === '\r' && text[from + 1] === '\n';
}

function push(context: Context, segment: Segment): void {
  if (segment.end > segment.start) context.out.push(segment);
}

interface HeaderBlock {
  /** Where the body begins: after the blank line, or where the first line that is not a header starts. */
  bodyStart: number;
  contentType: string;
  boundary: string | null;
  encoding: string;
}

/** Reads the header block at text[start, end); null when the first line is no header field (nor blank). */
function readHeaders(context: Context, start: number, end: number): HeaderBlock | null {
  const { text } = context;
  const fields = new Map<string, string>();
  let current: string | null = null;
  let position = start;
  let first = true;
  while (position < end) {
    const next = lineEnd(text, position, end);
    if (isBlankLine(text, position, next)) {
      position = next;
      break;
    }
    const char = text[position];
    if ((char === ' ' || char === '\t') && !first) {
      // A folded line continues the field before it.
      if (current !== null) {
        const value = fields.get(current) ?? '';
        if (value.length < MAX_HEADER_VALUE) fields.set(current, value + text.slice(position, Math.min(next, position + MAX_HEADER_VALUE)));
      }
    } else {
      FIELD_NAME.lastIndex = position;
      const match = FIELD_NAME.exec(text);
      if (match === null || FIELD_NAME.lastIndex > next) {
        // Not a header: the headers end here (none at all when it is the first line).
        if (first) return null;
        break;
      }
      const name = match[1]!.toLowerCase();
      current = name === 'content-type' || name === 'content-transfer-encoding' ? name : null;
      // The first of each counts, as most parsers take it.
      if (current !== null && fields.has(current)) current = null;
      if (current !== null) fields.set(current, text.slice(FIELD_NAME.lastIndex, Math.min(next, FIELD_NAME.lastIndex + MAX_HEADER_VALUE)));
    }
    first = false;
    position = next;
  }
  const type = fields.get('content-type') ?? '';
  const mediaType = /^\s*([^\s;/]+\s*\/\s*[^\s;]+)/.exec(type)?.[1]?.replace(/\s+/g, '').toLowerCase() ?? 'text/plain';
  const encoding = (fields.get('content-transfer-encoding') ?? '').trim().toLowerCase().split(/[\s;(]/)[0] || '7bit';
  return { bodyStart: position, contentType: mediaType, boundary: boundaryOf(type), encoding };
}

/** The boundary parameter of a Content-Type value, quoted or not; null when it has none or it cannot be one. */
export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\\r\n]|\\.)*)"|([^\s;"]+))/i.exec(contentType);
  if (match === null) return null;
  const boundary = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!;
  return boundary.length > 0 && boundary.length <= MAX_BOUNDARY ? boundary : null;
}

/** An entity: its headers, then its body (split again when it is a multipart or a message). */
function readEntity(context: Context, start: number, end: number, depth: number): void {
  if (start >= end) return;
  if (context.out.length >= context.limits.maxSegments) {
    push(context, { kind: 'text', start, end, depth });
    return;
  }
  const headers = readHeaders(context, start, end);
  if (headers === null) {
    push(context, { kind: 'text', start, end, depth });
    return;
  }
  const { bodyStart, contentType, boundary, encoding } = headers;
  push(context, { kind: 'headers', start, end: bodyStart, depth, contentType, encoding });
  if (bodyStart >= end) return;
  const plain = encoding === '7bit' || encoding === '8bit' || encoding === 'binary';
  if (depth < context.limits.maxDepth) {
    if (contentType.startsWith('multipart/') && boundary !== null && readMultipart(context, bodyStart, end, boundary, depth + 1)) return;
    if ((contentType === 'message/rfc822' || contentType === 'message/global') && plain) {
      readEntity(context, bodyStart, end, depth + 1);
      return;
    }
  }
  push(context, { kind: 'body', start: bodyStart, end, depth, contentType, encoding });
}

/**
 * The delimiter line for `boundary` at or after `from`: `--boundary` at the start of a line, `--` after it on the close,
 * then only whitespace. Null when there is none before `to`.
 */
function nextDelimiter(context: Context, from: number, to: number, boundary: string, bodyStart: number): { start: number; end: number; close: boolean } | null {
  const { text } = context;
  const delimiter = `--${boundary}`;
  let position = from;
  for (;;) {
    const found = find(text, delimiter, position, to);
    if (found === -1) return null;
    position = found + delimiter.length;
    if (found !== bodyStart && text[found - 1] !== '\n') continue;
    const end = lineEnd(text, position, to);
    let tail = position;
    const close = text.startsWith('--', tail) && tail + 2 <= end;
    if (close) tail += 2;
    while (tail < end && (text[tail] === ' ' || text[tail] === '\t' || text[tail] === '\r' || text[tail] === '\n')) tail++;
    if (tail === end) return { start: found, end, close };
  }
}

/** A multipart body: preamble, delimiter lines with the parts between them, epilogue. False when no delimiter occurs. */
function readMultipart(context: Context, start: number, end: number, boundary: string, depth: number): boolean {
  let delimiter = nextDelimiter(context, start, end, boundary, start);
  if (delimiter === null) return false;
  push(context, { kind: 'text', start, end: delimiter.start, depth });
  for (;;) {
    if (context.out.length >= context.limits.maxSegments) {
      push(context, { kind: 'text', start: delimiter.start, end, depth });
      return true;
    }
    push(context, { kind: 'boundary', start: delimiter.start, end: delimiter.end, depth });
    if (delimiter.close) {
      push(context, { kind: 'text', start: delimiter.end, end, depth });
      return true;
    }
    const next = nextDelimiter(context, delimiter.end, end, boundary, start);
    readEntity(context, delimiter.end, next?.start ?? end, depth);
    if (next === null) return true;
    delimiter = next;
  }
}

/**
 * The raw message as segments covering it exactly, in order. Whatever the text, it answers: on anything it cannot
 * make sense of, the text is one segment of kind text.
 */
export function splitMime(text: string, limits: Partial<SplitLimits> = {}): Segment[] {
  if (text.length === 0) return [];
  const context: Context = { text, limits: { ...DEFAULT_LIMITS, ...limits }, out: [] };
  try {
    readEntity(context, 0, text.length, 0);
    return context.out;
  } catch {
    return [{ kind: 'text', start: 0, end: text.length, depth: 0 }];
  }
}

/** The number of lines in text[start, end): a last line without its LF counts, an empty range has none. */
export function countLines(text: string, start: number, end: number): number {
  if (end <= start) return 0;
  let lines = 0;
  let position = start;
  for (;;) {
    const newline = text.indexOf('\n', position);
    if (newline === -1 || newline >= end - 1) break;
    lines++;
    position = newline + 1;
  }
  return lines + 1;
}

/** The offset after the `lines`-th line from `start`, no further than `maxChars` from it nor than `end`. */
export function advanceLines(text: string, start: number, end: number, lines: number, maxChars: number): number {
  const limit = Math.min(end, start + maxChars);
  let position = start;
  for (let line = 0; line < lines && position < limit; line++) {
    const newline = text.indexOf('\n', position);
    if (newline === -1 || newline >= limit) return limit;
    position = newline + 1;
  }
  return position;
}
