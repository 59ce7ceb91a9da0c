// Unit: a message list's line of text — one line, padding gone, at most 140 characters, cut where a reader expects.
import { strict as assert } from 'node:assert';
import { SNIPPET_LENGTH, snippetOf } from '../../src/mime/snippet.js';

describe('snippetOf', function () {
  it('puts the text on one line and leaves a short one whole', () => {
    assert.equal(snippetOf('  Hi Ana,\r\n\r\n\tyour code is\u00a0482913.\n'), 'Hi Ana, your code is 482913.');
    assert.equal(snippetOf(''), '');
    assert.equal(snippetOf(' \n\u200b\u034f '), '', 'padding alone is no text');
  });

  it('removes the padding preheaders hide the rest of a preview with', () => {
    assert.equal(snippetOf('Arrives Tuesday\u200c\u00a0\u034f\u200c\u00a0\u034f\u00ad\ufeff Track it'), 'Arrives Tuesday Track it');
  });

  it('cuts a long text at a word boundary near the end, with an ellipsis, within the length', () => {
    const words = 'Thanks for your order. Your parcel left our warehouse this morning and should arrive within three working days at the address you gave us.';
    const snippet = snippetOf(`${words} ${words}`);
    assert.ok(snippet.length <= SNIPPET_LENGTH, `${snippet.length} characters`);
    assert.ok(snippet.endsWith('…'));
    const kept = snippet.slice(0, -1);
    assert.ok(`${words} ${words}`.startsWith(kept), 'a prefix of the text');
    assert.match(`${words} ${words}`.slice(kept.length), /^ /, 'the cut falls between words');
  });

  it('cuts an unbroken run (a long link) where it falls, and never through a surrogate pair', () => {
    const link = `https://example.test/${'a'.repeat(300)}`;
    assert.equal(snippetOf(link), `${link.slice(0, SNIPPET_LENGTH - 1)}…`);
    const emoji = `${'x'.repeat(SNIPPET_LENGTH - 2)}😀😀😀`;
    const snippet = snippetOf(emoji);
    assert.equal(snippet, `${'x'.repeat(SNIPPET_LENGTH - 2)}…`, 'the emoji straddling the cut is left out whole');
  });
});
