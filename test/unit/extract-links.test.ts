// The URLs the link check requests: every source of the HTML a mail client fetches or a reader follows, and the text body.
import { strict as assert } from 'node:assert';
import { extractCheckableLinks, extractLinks, linkDetails } from '../../src/mime/extract-links.js';
import { readHtml } from '../../src/mime/html-text.js';

describe('extractCheckableLinks', () => {
  it('collects every kind of URL the HTML refers to, in document order, then the text body', () => {
    const html = [
      '<html><head>',
      '<link rel="stylesheet" href="https://css.test/main.css"><link rel="icon" href="https://css.test/favicon.ico">',
      '<LINK REL="Alternate StyleSheet" HREF="https://css.test/alt.css">',
      '<style>@import url("https://css.test/imported.css"); @import \'https://css.test/string-import.css\';',
      '.hero { background: url(https://img.test/hero.png) } .q { background-image: url( \'https://img.test/quoted.png\' ) }</style>',
      '</head><body background="https://img.test/body-bg.jpg">',
      '<table><td background="https://img.test/cell.gif" style="background:url(&quot;https://img.test/inline.png&quot;)">',
      '<a href="https://a.test/click?x=1&amp;y=2">click</a><area href="http://a.test/area">',
      '<img src="https://img.test/logo.png" srcset="https://img.test/logo-1x.png 1x, https://img.test/logo,2x.png 2x,https://img.test/logo-3x.png">',
      '<picture><source srcset="https://img.test/wide.webp 800w"></picture>',
      '<a href="mailto:x@y.test">mail</a><a href="/relative">rel</a><img src="data:image/png;base64,AAAA"><img src="cid:logo">',
      '<a href="https://a.test/click?x=1&y=2">same again</a>',
      '</td></table></body></html>',
    ].join('\n');
    assert.deepEqual(extractCheckableLinks(html, 'Also see https://text.test/page and <https://a.test/area-not-same>.'), [
      'https://css.test/main.css',
      'https://css.test/alt.css',
      'https://css.test/imported.css',
      'https://css.test/string-import.css',
      'https://img.test/hero.png',
      'https://img.test/quoted.png',
      'https://img.test/body-bg.jpg',
      'https://img.test/cell.gif',
      'https://img.test/inline.png',
      'https://a.test/click?x=1&y=2',
      'http://a.test/area',
      'https://img.test/logo.png',
      'https://img.test/logo-1x.png',
      'https://img.test/logo,2x.png',
      'https://img.test/logo-3x.png',
      'https://img.test/wide.webp',
      'https://text.test/page',
      'https://a.test/area-not-same',
    ]);
  });

  it('reads a <style> left open and keeps links out of other text', () => {
    assert.deepEqual(extractCheckableLinks('<p>url(https://not.test/a) is prose</p><style>p{background:url(https://img.test/x.png)}', ''), ['https://img.test/x.png']);
  });

  it('leaves the clickable links (link_count, the message view) as they were', () => {
    const html = '<img src="https://img.test/a.png"><a href="https://a.test/">a</a><style>a{background:url(https://img.test/b.png)}</style>';
    assert.deepEqual(extractLinks(html, ''), ['https://a.test/']);
  });
});

describe('linkDetails', () => {
  const detailsOf = (html: string, text: string) => linkDetails(readHtml(html).anchors, text);

  it('gives each followable link once, HTML first, with what the reader sees of it', () => {
    const html = [
      '<p>Hello <a href="https://shop.example/orders/1042">View   your\n order</a></p>',
      '<a href="https://shop.example/track"><img src="https://cdn.example/truck.png" alt="Track it"></a>',
      '<a href="mailto:help@shop.example">Mail us</a> <a href="https://shop.example/orders/1042">again</a>',
      '<map><area href="https://shop.example/map" alt="Our store"></map><a href="https://shop.example/unclosed">Unclosed',
    ].join('');
    assert.deepEqual(detailsOf(html, 'Or open https://shop.example/orders/1042 or https://shop.example/help'), [
      { url: 'https://shop.example/orders/1042', text: 'View your order', source: 'html' },
      { url: 'https://shop.example/track', text: 'Track it', source: 'html' },
      { url: 'https://shop.example/map', text: 'Our store', source: 'html' },
      { url: 'https://shop.example/unclosed', text: 'Unclosed', source: 'html' },
      { url: 'https://shop.example/help', text: '', source: 'text' },
    ]);
  });

  it('gives the links extractLinks gives, in its order', () => {
    const html = '<a href="https://a.example/1">one</a><img src="https://cdn.example/x.png"><a href=" https://a.example/2 ">two</a><a href="https://a.example/1">again</a>';
    const text = 'see https://a.example/3 and https://a.example/1';
    assert.deepEqual(detailsOf(html, text).map((link) => link.url), extractLinks(html, text));
  });
});
