// Deriving searchable fields from raw bytes, and flagging MIME that mailparser would silently tolerate.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { parseEmail } from '../../src/mime/parse-email.js';
import { extractLinks, LINK_DETAILS_KEPT } from '../../src/mime/extract-links.js';
import { headerSummary } from '../../src/mime/header-summary.js';
import addressparser from 'nodemailer/lib/addressparser/index.js';

const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'utf8');

describe('parseEmail', () => {
  it('takes the snippet from the HTML body\'s text when there is no text part, preheader padding left out', async () => {
    const parsed = await parseEmail(crlf([
      'From: shop@example.com',
      'Subject: Your order has shipped',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<div style="display:none">Arrives Tuesday &zwnj;&nbsp;&zwnj;&nbsp;&#847;&zwnj;</div><h1>Order   #1042</h1><p>is on its way.</p>',
      '',
    ]));
    // The HTML's text as search reads it, headings as written, on one line.
    assert.equal(parsed.snippet, 'Arrives Tuesday Order #1042 is on its way.');
  });

  it('decodes encoded-word headers and separates text from html', async () => {
    const parsed = await parseEmail(crlf([
      'From: =?UTF-8?B?w4lsaXNl?= <elise@example.com>',
      'To: Bob <bob@example.com>',
      'Cc: carol@example.com',
      'Subject: =?ISO-8859-1?Q?R=E9sum=E9?= ready',
      'Message-ID: <abc@example.com>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Plain https://example.com/plain',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Hello <a href="https://example.com/html?a=1&amp;b=2">link</a> <a href="mailto:x@y.z">mail</a></p>',
      '--b1--',
      '',
    ]));
    assert.equal(parsed.subject, 'Résumé ready');
    assert.equal(parsed.from, '"Élise" <elise@example.com>');
    assert.equal(parsed.to, '"Bob" <bob@example.com>');
    assert.equal(parsed.cc, 'carol@example.com');
    assert.equal(parsed.messageId, '<abc@example.com>');
    assert.equal(parsed.hasText, true);
    assert.equal(parsed.hasHtml, true);
    assert.equal(parsed.linkCount, 2, 'the html href and the plain-text URL; mailto is no web link');
    assert.match(parsed.htmlText, /Hello link/);
    assert.doesNotMatch(parsed.htmlText, /https:/, 'hrefs are links, not text');
    assert.equal(parsed.snippet, 'Plain https://example.com/plain', 'the text part comes first');
    assert.equal(parsed.parseError, null);
  });

  it('an HTML-only message has no text part', async () => {
    const parsed = await parseEmail(crlf(['Subject: html', 'Content-Type: text/html', '', '<b>bold</b>', '']));
    assert.equal(parsed.hasText, false);
    assert.equal(parsed.hasHtml, true);
    assert.equal(parsed.textBody, '');
    assert.equal(parsed.htmlText.trim(), 'bold');
  });

  it('counts attachments, inline ones included', async () => {
    const parsed = await parseEmail(crlf([
      'Subject: files',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--outer',
      'Content-Type: application/pdf; name="a.pdf"',
      'Content-Disposition: attachment; filename="a.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      'JVBERi0xLjQK',
      '--outer',
      'Content-Type: image/png; name="b.png"',
      'Content-Disposition: inline; filename="b.png"',
      'Content-ID: <b@x>',
      'Content-Transfer-Encoding: base64',
      '',
      'iVBORw0KGgo=',
      '--outer--',
      '',
    ]));
    assert.equal(parsed.attachmentCount, 2);
    assert.equal(parsed.parseError, null);
  });

  const broken: [string, string[], RegExp][] = [
    ['a multipart without boundary', ['Subject: x', 'Content-Type: multipart/mixed', '', 'body', ''], /without a boundary/],
    ['a boundary that never appears', ['Subject: x', 'Content-Type: multipart/mixed; boundary=zzz', '', 'just text', ''], /never appears/],
    ['a multipart never closed', ['Subject: x', 'Content-Type: multipart/mixed; boundary=zzz', '', '--zzz', 'Content-Type: text/plain', '', 'cut off', ''], /closing boundary/],
    ['a header section with a non-header line', ['Subject: x', 'this is not a header', '', 'body', ''], /line 2 of the header section/],
    ['no blank line before the body', ['Subject: x', 'Hello there, no separator'], /header section/],
  ];
  for (const [name, lines, expected] of broken) {
    it(`sets parseError for ${name} and still reads what it can`, async () => {
      const parsed = await parseEmail(crlf(lines));
      assert.match(parsed.parseError ?? '', expected);
      assert.equal(parsed.subject, 'x');
    });
  }

  it('survives bytes that are not text at all', async () => {
    const parsed = await parseEmail(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x0d, 0x0a, 0x80, 0x81]));
    assert.ok(parsed.parseError);
  });

  it('accepts bare LF line endings as valid', async () => {
    const parsed = await parseEmail(Buffer.from('Subject: lf\nContent-Type: text/plain\n\nhello\n'));
    assert.equal(parsed.subject, 'lf');
    assert.equal(parsed.textBody.trim(), 'hello');
    assert.equal(parsed.parseError, null);
  });
});

describe('parseEmail links', () => {
  it('counts every link and keeps the details of the first LINK_DETAILS_KEPT', async () => {
    const anchors = Array.from({ length: LINK_DETAILS_KEPT + 50 }, (_, i) => `<a href="https://example.test/${i}">link ${i}</a>`).join(' ');
    const parsed = await parseEmail(crlf(['From: a@example.test', 'Subject: links', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', anchors, '']));
    assert.equal(parsed.linkCount, LINK_DETAILS_KEPT + 50);
    assert.equal(parsed.linkDetails.length, LINK_DETAILS_KEPT);
    assert.deepEqual(parsed.linkDetails[0], { url: 'https://example.test/0', text: 'link 0', source: 'html' });
  });
});

describe('extractLinks', () => {
  it('keeps http(s) only, unique, in order of appearance', () => {
    const html = '<a href="https://a.test/1">1</a><a href="ftp://x">f</a><area href="http://b.test/2"><a href=" https://a.test/1 ">again</a>';
    assert.deepEqual(extractLinks(html, 'also https://c.test/3 and https://a.test/1'), ['https://a.test/1', 'http://b.test/2', 'https://c.test/3']);
  });
});

describe('parseEmail fields for Mailpit\'s search', () => {
  it('reads Bcc and Reply-To for search, and counts the parts shown inline among the attachments', async () => {
    const inline = await parseEmail(fs.readFileSync(new URL('../fixtures/eml/mixed-attachment-inline.eml', import.meta.url)));
    assert.deepEqual([inline.attachmentCount, inline.inlineCount], [2, 1]);
    const headers = await parseEmail(crlf(['From: a@x.test', 'Bcc: Dan <dan@x.test>', 'Reply-To: Help <help@x.test>', 'Subject: s', '', 'body', '']));
    assert.deepEqual([headers.bcc, headers.replyTo, headers.inlineCount], ['"Dan" <dan@x.test>', '"Help" <help@x.test>', 0]);
  });
});

describe('parseEmail addresses', () => {
  const raw = crlf([
    'From: "Smith, \\"J\\"" <"john smith"@Example.test>',
    'To: δοκιμή@παράδειγμα.δοκιμή, Team: a@x.test, "b.c"@x.test;',
    'Cc: =?UTF-8?Q?J=C3=B6rg?= <jörg@xn--bcher-kva.example>',
    'Bcc: hidden@x.test',
    'Reply-To: help@x.test',
    'Subject: addresses',
    '',
    'body',
    '',
  ]);

  it('keys every address of From, To, Cc, Bcc and Reply-To, group members included', async () => {
    const parsed = await parseEmail(raw);
    assert.deepEqual(parsed.headerAddresses, {
      from: ['john smith@example.test'],
      to: ['a@x.test', 'b.c@x.test', 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp'],
      cc: ['jörg@xn--bcher-kva.example'],
      bcc: ['hidden@x.test'],
      replyTo: ['help@x.test'],
    });
  });

  it('writes each address header as text that parses back to the same names and mailboxes', async () => {
    const parsed = await parseEmail(raw);
    assert.equal(parsed.from, '"Smith, \\"J\\"" <"john smith"@Example.test>', 'quotes in a display name are escaped');
    assert.equal(parsed.to, 'δοκιμή@παράδειγμα.δοκιμή, "Team": a@x.test, b.c@x.test;');
    assert.equal(parsed.cc, '"Jörg" <jörg@bücher.example>');
    const back = addressparser(parsed.from, { flatten: true });
    assert.deepEqual(back, [{ name: 'Smith, "J"', address: '"john smith"@Example.test' }]);
  });

  it('keys the header fields of the header-only fallback the same way', () => {
    const summary = headerSummary(raw);
    assert.deepEqual(summary.headerAddresses.to, ['a@x.test', 'b.c@x.test', 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp']);
    assert.deepEqual(summary.headerAddresses.from, ['john smith@example.test']);
    assert.deepEqual(summary.headerAddresses.cc, ['jörg@xn--bcher-kva.example']);
  });
});
