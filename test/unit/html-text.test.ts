// Unit: the text and links one reading of an HTML body gives (html-text.ts), on the markup real mail is made of and on
// markup that is broken or built to be expensive.
import { strict as assert } from 'node:assert';
import { ANCHOR_TEXT_READ, readHtml } from '../../src/mime/html-text.js';

const textOf = (html: string) => readHtml(html).text;

describe('readHtml text', () => {
  it('lays block elements out on lines of their own and keeps inline elements in the flow', () => {
    assert.equal(textOf('<div>One</div><div>Two <b>bold</b><span>joined</span></div><p>Three</p>'), 'One\nTwo boldjoined\nThree');
    assert.equal(textOf('<h1>Order   #1042</h1><p>is on\n\tits way.</p>'), 'Order #1042\nis on its way.', 'headings as written, whitespace collapsed');
  });

  it('breaks lines at <br>, at most one blank line for a run of them, and reads </br> as <br>', () => {
    assert.equal(textOf('one<br>two<br/><br>three<br><br><br><br>four</br>five'), 'one\ntwo\n\nthree\n\nfour\nfive');
  });

  it('puts each list item on a line of its own, without bullets or numbers', () => {
    assert.equal(textOf('<p>Steps:</p><ol><li>Open</li><li>Click <a href="https://x.test/">here</a></li></ol><ul><li>Done</li></ul>'), 'Steps:\nOpen\nClick here\nDone');
  });

  it('reads nested layout tables row by row, cells apart by a tab, so cells never run into one word', () => {
    const html = [
      '<table role="presentation"><tr><td>',
      '  <table><tr><td>Verification code</td><td>482913</td></tr>',
      '  <tr><th>Total</th><td>&euro;7.99</td></tr></table>',
      '</td><td>Side column</td></tr></table>',
    ].join('\n');
    assert.equal(textOf(html), 'Verification code\t482913\nTotal\t€7.99\nSide column');
  });

  it('decodes named, decimal and hex entities, in text and in attributes', () => {
    assert.equal(textOf('R&amp;D &lt;draft&gt; caf&eacute; &#8364;5 &#x1F600; 2&ndash;3 &quot;q&quot; AT&T'), 'R&D <draft> café €5 😀 2–3 "q" AT&T');
    assert.deepEqual(readHtml('<a href="https://x.test/?a=1&amp;b=2">go</a>').anchors, [{ href: 'https://x.test/?a=1&b=2', text: 'go' }]);
  });

  it('leaves out scripts, style sheets, the title and templates, but keeps what is visible around them', () => {
    const html = '<html><head><title>Receipt</title><style>p{color:red}</style><meta charset="utf-8"></head>'
      + '<body><script>document.write("<p>x</p>")</script><p>Paid</p><template><p>Later</p></template><noscript>No script</noscript></body></html>';
    assert.equal(textOf(html), 'Paid\nNo script');
  });

  it('keeps a hidden preheader, as mail clients show it in their previews, with its padding as it is', () => {
    const text = textOf('<div style="display:none">Arrives Tuesday &zwnj;&nbsp;&#847;</div><p>Hello</p>');
    assert.equal(text, 'Arrives Tuesday \u200c\u00a0\u034f\nHello');
  });

  it('keeps whitespace inside <pre>', () => {
    assert.equal(textOf('<p>Log:</p><pre>  a\n    b</pre><p>end</p>'), 'Log:\n  a\n    b\nend');
  });

  it('leaves out image alt texts, link targets and comments', () => {
    assert.equal(textOf('<img src="https://cdn.test/logo.png" alt="Logo"><!-- hidden -->Visit <a href="https://shop.test/">our shop</a>'), 'Visit our shop');
  });

  it('reads malformed markup without losing text: unclosed and stray tags, bad attributes, a lone <', () => {
    assert.equal(textOf('<p>unclosed <b>bold <i>it</p> after</div></span> more'), 'unclosed bold it\nafter\nmore');
    assert.equal(textOf('<div class="a" "broken"=x>text</div>'), 'text');
    assert.equal(textOf('< not a tag > & stray < / >'), '< not a tag > & stray < / >');
    assert.equal(textOf('<DIV>Upper</DIV><P>Case</P>'), 'Upper\nCase');
  });

  it('gives no text for an empty or all-markup body', () => {
    assert.equal(textOf(''), '');
    assert.equal(textOf('<html><head><title>t</title></head><body>  <br> </body></html>'), '');
  });
});

describe('readHtml links', () => {
  it('gives every a[href] and area[href] in document order, with the words on the link or its images\' alt text', () => {
    const html = [
      '<a href="https://a.test/1">View   your\n order</a>',
      '<a href="https://a.test/2"><img src="x.png" alt="Track it"></a>',
      '<a name="top">no href</a><a href="">empty</a>',
      '<map><area href="https://a.test/map" alt="Store"></map>',
      '<a href="mailto:x@y.test">Mail</a><a href="https://a.test/3">Unclosed',
    ].join('');
    assert.deepEqual(readHtml(html).anchors, [
      { href: 'https://a.test/1', text: 'View   your\n order' },
      { href: 'https://a.test/2', text: ' Track it' },
      { href: 'https://a.test/map', text: 'Store' },
      { href: 'mailto:x@y.test', text: 'Mail' },
      { href: 'https://a.test/3', text: 'Unclosed' },
    ]);
  });

  it('ends a link that is not closed where the next one starts, and takes the first of repeated attributes', () => {
    assert.deepEqual(readHtml('<a href="https://a.test/1">one<a HREF="https://a.test/2" href="https://a.test/3">two</a>').anchors, [
      { href: 'https://a.test/1', text: 'one' },
      { href: 'https://a.test/2', text: 'two' },
    ]);
  });
});

describe('readHtml bounds', () => {
  it('keeps only the first textLimit characters of text, and still reads every link to the end', () => {
    const html = `<p>${'word '.repeat(200_000)}</p><a href="https://a.test/last">last</a>`;
    const reading = readHtml(html, 1000);
    assert.equal(reading.text.length, 1000);
    assert.ok(reading.text.startsWith('word word'));
    assert.deepEqual(reading.anchors, [{ href: 'https://a.test/last', text: 'last' }]);
  });

  it('keeps at most ANCHOR_TEXT_READ characters of a link\'s words, however long the link', () => {
    const [anchor] = readHtml(`<a href="https://a.test/">${'x'.repeat(ANCHOR_TEXT_READ * 10)}</a>`).anchors;
    assert.equal(anchor!.text.length, ANCHOR_TEXT_READ);
  });

  it('reads text and links inside elements nested 100,000 deep', () => {
    const depth = 100_000;
    const reading = readHtml(`${'<div>'.repeat(depth)}<a href="https://a.test/deep">deep</a>${'</div>'.repeat(depth)}after`);
    assert.equal(reading.text, 'deep\nafter');
    assert.deepEqual(reading.anchors, [{ href: 'https://a.test/deep', text: 'deep' }]);
  });
});
