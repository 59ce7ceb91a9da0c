// The dashboard viewer's script in a page of mail (src/http/preview-script.ts): it goes first, before any of the
// mail's markup, yet after a leading doctype (and the comments before it), so the mail keeps its rendering mode; each
// page gets a nonce of its own.
import { strict as assert } from 'node:assert';
import { withPreviewScript } from '../../../src/http/preview-script.js';

const OPTIONS = { reportHeight: true, scheme: null };
const scriptAt = (html: string) => withPreviewScript(Buffer.from(html), OPTIONS).html.indexOf('<script nonce=');

describe('preview script', () => {
  it('goes right after a leading doctype', () => {
    const html = '\n <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x.dtd"><html><body><p>mail</p>';
    assert.equal(scriptAt(html), html.indexOf('<html>'));
  });

  it('goes after the comments before a doctype', () => {
    const html = '<!-- a --> <!-- b --><!doctype html><html>';
    assert.equal(scriptAt(html), html.indexOf('<html>'));
  });

  it('counts in bytes, and goes after a byte order mark before a doctype', () => {
    const html = '<!-- é ü --><!DOCTYPE html><p>é</p>';
    assert.equal(scriptAt(html), Buffer.byteLength(html.slice(0, html.indexOf('<p>'))));
    assert.equal(scriptAt('\ufeff<!DOCTYPE html><p>x</p>'), Buffer.byteLength('\ufeff<!DOCTYPE html>'));
  });

  it('goes first when there is no doctype, or an unclosed comment', () => {
    assert.equal(scriptAt('<p>no doctype</p><!DOCTYPE html>'), 0);
    assert.equal(scriptAt('<!-- never closed <!DOCTYPE html>'), 0);
  });

  it('carries a nonce of 16 random bytes, a new one per page, and nothing of the mail', () => {
    const first = withPreviewScript(Buffer.from('<p>"</script></p>'), OPTIONS);
    const second = withPreviewScript(Buffer.from('<p>"</script></p>'), OPTIONS);
    assert.match(first.nonce, /^[A-Za-z0-9+/]{22}==$/);
    assert.notEqual(first.nonce, second.nonce);
    assert.ok(first.html.toString().startsWith(`<script nonce="${first.nonce}">`));
    assert.ok(first.html.toString().endsWith('</script><p>"</script></p>'), 'the mail follows the script unchanged');
  });
});
