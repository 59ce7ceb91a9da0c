// Hostile message shapes (issue 11): emails whose analysis cost a stranger controls, for the e2e suite and the stall bench.

export interface HostileShape {
  name: string;
  description: string;
  /** A complete RFC 5322 message with CRLF line ends, built on each call so that importing this module costs nothing. */
  build(): Buffer;
}

const CRLF = '\r\n';

/**
 * RFC 5322 caps a line at 998 characters; packing this many tags on a line keeps within that while the nesting
 * stays as deep as the byte count allows (90 `</div>` are 540 characters).
 */
const TAGS_PER_LINE = 90;

/**
 * Under SANDBOX_MAX_MESSAGE_BYTES' default (25 MiB, src/config.ts) by half a MiB, so the shape tests the parser and
 * not the size limit.
 */
const LARGEST_BYTES = 24.5 * 1024 * 1024;

/** The header section every shape starts with: the subject names the shape so a search finds it. */
function headerLines(name: string, contentType: string): string[] {
  return [
    'From: Hostile Sender <hostile@sender.example.test>',
    'To: Capture Target <target@sandbox.example.test>',
    `Subject: hostile ${name}`,
    `Message-ID: <${name}@hostile.example.test>`,
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: ${contentType}`,
  ];
}

/** Joins header lines and body lines into one message; each part is joined once, never appended in a loop. */
const message = (headers: string[], body: string[]): Buffer => Buffer.from([...headers, '', ...body, ''].join(CRLF), 'utf8');

const HTML_TYPE = 'text/html; charset=utf-8';
const HTML_HEAD = '<!DOCTYPE html><html><body>';
const HTML_TAIL = '</body></html>';
const DIV_OPEN_LINE = '<div>'.repeat(TAGS_PER_LINE);
const DIV_CLOSE_LINE = '</div>'.repeat(TAGS_PER_LINE);
const DEEPEST_TEXT = 'the deepest div';

/** An HTML body of `levels` nested divs around one text, TAGS_PER_LINE tags to a line. */
function nestedDivs(name: string, levels: number): Buffer {
  const lines = Math.floor(levels / TAGS_PER_LINE);
  const rest = levels % TAGS_PER_LINE;
  const opens = `${DIV_OPEN_LINE}${CRLF}`.repeat(lines) + '<div>'.repeat(rest);
  const closes = '</div>'.repeat(rest) + `${CRLF}${DIV_CLOSE_LINE}`.repeat(lines);
  return message(headerLines(name, HTML_TYPE), [HTML_HEAD, `${opens}${DEEPEST_TEXT}${closes}`, HTML_TAIL]);
}

/** The most levels of nested divs (in whole lines) whose message stays within `maxBytes`; the rest of it has a fixed length. */
function nestedDivLevelsWithin(name: string, maxBytes: number): number {
  const fixed = nestedDivs(name, 0).length;
  const perLine = DIV_OPEN_LINE.length + DIV_CLOSE_LINE.length + 2 * CRLF.length;
  return Math.floor((maxBytes - fixed) / perLine) * TAGS_PER_LINE;
}

/** multipart/mixed `depth` levels deep, each level a part holding the next; boundaries of equal length so none is a prefix of another. */
function nestedMultipart(name: string, depth: number): Buffer {
  const boundary = (level: number) => `depth-${String(level).padStart(String(depth).length, '0')}`;
  const opens: string[] = [];
  const closes: string[] = [];
  for (let level = 1; level < depth; level++) {
    opens.push(`--${boundary(level - 1)}`, `Content-Type: multipart/mixed; boundary="${boundary(level)}"`, '');
    closes.push(`--${boundary(level - 1)}--`);
  }
  const bottom = [`--${boundary(depth - 1)}`, 'Content-Type: text/plain; charset=utf-8', '', `the text part at depth ${depth}`, `--${boundary(depth - 1)}--`];
  return message(headerLines(name, `multipart/mixed; boundary="${boundary(0)}"`), [...opens, ...bottom, ...closes.reverse()]);
}

function manyHeaders(name: string, count: number): Buffer {
  const fillers = Array.from({ length: count }, (_, index) => `X-Filler-${index}: filler value ${index}`);
  return message([...headerLines(name, 'text/plain; charset=utf-8'), ...fillers], [`${count} header fields came before this body.`]);
}

function manyLinks(name: string, count: number): Buffer {
  const links = Array.from({ length: count }, (_, index) => `<a href="https://example.test/page/${index}">link ${index}</a><br>`);
  return message(headerLines(name, HTML_TYPE), [HTML_HEAD, ...links, HTML_TAIL]);
}

function manyAttachments(name: string, count: number): Buffer {
  const boundary = 'attachments-boundary';
  const parts = Array.from({ length: count }, (_, index) => [
    `--${boundary}`,
    `Content-Type: application/octet-stream; name="file-${index}.bin"`,
    `Content-Disposition: attachment; filename="file-${index}.bin"`,
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(`attachment number ${index}\n`).toString('base64'),
  ].join(CRLF));
  const text = [`--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', `${count} attachments follow.`];
  return message(headerLines(name, `multipart/mixed; boundary="${boundary}"`), [...text, ...parts, `--${boundary}--`]);
}

export const HOSTILE_SHAPES: HostileShape[] = [
  {
    name: 'nested-div-2mb',
    description: 'text/html of 200,000 nested <div>s (~2.2 MB): the message that froze the old server for 27 s',
    build: () => nestedDivs('nested-div-2mb', 200_000),
  },
  {
    name: 'nested-div-25mb',
    description: 'text/html of ~2.3 million nested <div>s, as large as the default 25 MiB size limit allows (24.5 MiB)',
    build: () => nestedDivs('nested-div-25mb', nestedDivLevelsWithin('nested-div-25mb', LARGEST_BYTES)),
  },
  {
    name: 'mime-depth-3000',
    description: 'multipart/mixed nested 3,000 deep, a small text/plain part at the bottom',
    build: () => nestedMultipart('mime-depth-3000', 3000),
  },
  {
    name: 'headers-50000',
    description: '50,000 X-Filler-N header fields before a short text/plain body',
    build: () => manyHeaders('headers-50000', 50_000),
  },
  {
    name: 'links-100000',
    description: 'text/html with 100,000 distinct <a href="https://example.test/..."> links',
    build: () => manyLinks('links-100000', 100_000),
  },
  {
    name: 'attachments-20000',
    description: 'multipart/mixed with a text part and 20,000 small base64 attachments',
    build: () => manyAttachments('attachments-20000', 20_000),
  },
];
