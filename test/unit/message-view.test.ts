// messageView: a reader's view holds at most VIEW_FIELD_CHARACTERS of each large field (text, HTML, headers, links),
// names what it cut, and leaves an everyday message whole.
import { strict as assert } from 'node:assert';
import { VIEW_FIELD_CHARACTERS } from '../../src/domain/message-view.js';
import { messageView } from '../../src/mime/message-view.js';

const message = (headers: string[], contentType: string, body: string) =>
  Buffer.from([...headers, 'MIME-Version: 1.0', `Content-Type: ${contentType}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit', '', body, ''].join('\r\n'));

describe('messageView', () => {
  it('leaves an everyday message whole', async () => {
    const view = await messageView(message(['From: a@example.test', 'Subject: hello'], 'text/html', '<p><a href="https://example.test/x">x</a></p>'));
    assert.deepEqual(view.truncated, []);
    assert.equal(view.html, '<p><a href="https://example.test/x">x</a></p>\n');
    assert.deepEqual(view.links, ['https://example.test/x']);
    assert.deepEqual(view.headers.subject, ['hello']);
  });

  it('keeps the start of a large HTML body and the links that fit', async () => {
    const links = Array.from({ length: 20_000 }, (_, n) => `https://example.test/page/${n}`);
    const body = links.map((href) => `<p><a href="${href}">${href}</a></p>`).join('\n');
    const view = await messageView(message(['From: a@example.test'], 'text/html', body));
    assert.deepEqual(view.truncated, ['html', 'links']);
    assert.equal(view.html, body.slice(0, VIEW_FIELD_CHARACTERS));
    assert.deepEqual(view.links, links.slice(0, view.links.length), 'whole links, in order');
    const kept = view.links.join('').length;
    assert.ok(kept <= VIEW_FIELD_CHARACTERS && kept + links[view.links.length]!.length > VIEW_FIELD_CHARACTERS, 'as many as fit');
  });

  it('never cuts a text body between the two halves of a character', async () => {
    const body = `${'a'.repeat(VIEW_FIELD_CHARACTERS - 1)}😀${'b'.repeat(100)}`;
    const view = await messageView(message(['From: a@example.test'], 'text/plain', body));
    assert.deepEqual(view.truncated, ['text']);
    assert.equal(view.text, 'a'.repeat(VIEW_FIELD_CHARACTERS - 1));
  });

  it('keeps the header fields that fit, the one crossing the limit cut there', async () => {
    const fields = Array.from({ length: 400 }, (_, n) => `X-Filler-${n}: ${String(n).padEnd(1000, '.')}`);
    const view = await messageView(message(['From: a@example.test', ...fields], 'text/plain', 'hi'));
    assert.deepEqual(view.truncated, ['headers']);
    assert.equal(view.text, 'hi\n');
    const counted = Object.entries(view.headers).reduce((sum, [name, values]) => sum + values.reduce((total, value) => total + name.length + value.length, 0), 0);
    assert.equal(counted, VIEW_FIELD_CHARACTERS, 'names and values fill the limit exactly');
    assert.ok(view.headers['x-filler-300'] === undefined, 'no field after the cut');
  });
});
