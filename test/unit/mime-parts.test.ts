// The Source tab's MIME splitting (src/dashboard/components/mime-parts.ts): nested multiparts, an attached message,
// LF or CRLF line ends, boundaries that never come, garbage; its pieces always add up to the raw text.
import { strict as assert } from 'node:assert';
import crypto from 'node:crypto';
import { countLines, splitMime, type Segment } from '../../src/dashboard/components/mime-parts.js';

const shape = (segments: Segment[]) => segments.map((segment) => `${segment.kind}@${segment.depth}${segment.kind === 'body' ? `:${segment.contentType}/${segment.encoding}` : ''}`);
const covers = (text: string, segments: Segment[]) => segments.map((segment) => text.slice(segment.start, segment.end)).join('') === text
  && segments.every((segment) => segment.end > segment.start);

describe('Source view: the raw message split into MIME parts', function () {
  const NESTED = [
    'From: a@example.com',
    'Content-Type: multipart/mixed;',
    '  boundary="outer=_1"',
    '',
    'This is a preamble.',
    '--outer=_1',
    'Content-Type: multipart/alternative; boundary=inner',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello',
    '--inner',
    'Content-Type: text/html',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    '<p>Hello</p>',
    '--inner--',
    '--outer=_1',
    'Content-Type: message/rfc822',
    '',
    'Subject: attached',
    '',
    'attached body',
    '--outer=_1',
    'Content-Type: image/png; name="a.png"',
    'Content-Transfer-Encoding: BASE64',
    '',
    'iVBORw0KGgo=',
    '--outer=_1--  ',
    'epilogue',
    '',
  ].join('\n');
  const NESTED_SHAPE = [
    'headers@0', 'text@1', 'boundary@1', 'headers@1', 'boundary@2', 'headers@2', 'body@2:text/plain/7bit', 'boundary@2', 'headers@2',
    'body@2:text/html/quoted-printable', 'boundary@2', 'boundary@1', 'headers@1', 'headers@2', 'body@2:text/plain/7bit', 'boundary@1',
    'headers@1', 'body@1:image/png/base64', 'boundary@1', 'text@1',
  ];

  it('reads nested multiparts and an attached message, with LF or CRLF line ends, covering the text exactly', function () {
    for (const text of [NESTED, NESTED.replace(/\n/g, '\r\n')]) {
      const segments = splitMime(text);
      assert.ok(covers(text, segments), 'the segments are the text, in order');
      assert.deepEqual(shape(segments), NESTED_SHAPE);
      const png = segments.find((segment) => segment.contentType === 'image/png' && segment.kind === 'body')!;
      assert.equal(text.slice(png.start, png.end).trim(), 'iVBORw0KGgo=');
    }
  });

  it('does not take a longer boundary for its prefix, and falls back to one body when the boundary never occurs', function () {
    const text = 'Content-Type: multipart/mixed; boundary=abc\n\n--abcdef\nnot a part\n--abc\n\npart\n--abc--\n';
    assert.deepEqual(shape(splitMime(text)), ['headers@0', 'text@1', 'boundary@1', 'headers@1', 'body@1:text/plain/7bit', 'boundary@1']);
    const missing = 'Content-Type: multipart/mixed; boundary=nowhere\n\n--elsewhere\nbody\n';
    assert.deepEqual(shape(splitMime(missing)), ['headers@0', 'body@0:multipart/mixed/7bit']);
    const unclosed = 'Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nno close';
    assert.deepEqual(shape(splitMime(unclosed)), ['headers@0', 'boundary@1', 'headers@1', 'body@1:text/plain/7bit']);
    const noBoundary = 'Content-Type: multipart/mixed\n\n--x\nbody\n';
    assert.deepEqual(shape(splitMime(noBoundary)), ['headers@0', 'body@0:multipart/mixed/7bit']);
  });

  it('never throws on garbage, and shows what is no message as text', function () {
    assert.deepEqual(splitMime(''), []);
    assert.deepEqual(shape(splitMime('just words, no header\nat all\n')), ['text@0']);
    const random = crypto.randomBytes(200_000).toString('latin1');
    for (const text of [random, `Content-Type: multipart/mixed; boundary=q\n\n${random}`, '\r\r\n\n\r', ':\n:', 'A: b\n\tc\n d', '--\n--\n']) {
      assert.ok(covers(text, splitMime(text)), `covers ${JSON.stringify(text.slice(0, 20))}`);
    }
    // Deep nesting stops at the depth limit; many parts stop at the segment limit, the rest as one text.
    const deep = Array.from({ length: 200 }, (_, index) => `Content-Type: multipart/mixed; boundary=b${index}\n\n--b${index}\n`).join('');
    const deepSegments = splitMime(deep);
    assert.ok(covers(deep, deepSegments) && Math.max(...deepSegments.map((segment) => segment.depth)) <= 24);
    const many = `Content-Type: multipart/mixed; boundary=m\n\n${'--m\n\nx\n'.repeat(100_000)}--m--\n`;
    const manySegments = splitMime(many);
    assert.ok(covers(many, manySegments) && manySegments.length < 4100 && manySegments.at(-1)!.kind === 'text');
  });

  it('splits a 17 MB message into its parts', function () {
    const line = `${'A'.repeat(76)}\r\n`;
    const text = `Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n${line.repeat(220_000)}--b--\r\n`;
    const segments = splitMime(text);
    assert.equal(countLines(text, 0, text.length), 220_007);
    assert.deepEqual(shape(segments), ['headers@0', 'boundary@1', 'headers@1', 'body@1:application/pdf/base64', 'boundary@1']);
    const line17 = 'x'.repeat(17_000_000);
    assert.ok(covers(line17, splitMime(line17)), 'one 17 MB line is one text segment');
  });
});

