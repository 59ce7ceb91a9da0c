// Which attachment types are served as themselves and which only as application/octet-stream, and that openapi.yaml
// names every type the list holds.
import { strict as assert } from 'node:assert';
import { ACTIVE_CONTENT_TYPES, DOWNLOAD_ONLY_TYPE, servedContentType } from '../../../src/http/served-content-type.js';
import { loadOpenApi } from '../../../src/http/openapi.js';

describe('served content type', () => {
  it('serves script-, style- and document-like types as application/octet-stream', () => {
    for (const declared of ['text/html', 'TEXT/HTML; charset=utf-8', 'application/xhtml+xml', 'image/svg+xml', 'text/javascript', 'application/javascript',
      'application/ecmascript', 'text/css', 'text/xml', 'application/xml', 'application/rss+xml', 'text/xsl', 'application/wasm', 'multipart/x-mixed-replace']) {
      assert.equal(servedContentType(declared), DOWNLOAD_ONLY_TYPE, declared);
    }
  });

  it('keeps other types, as their lower-case essence', () => {
    assert.equal(servedContentType('application/pdf'), 'application/pdf');
    assert.equal(servedContentType('Image/PNG'), 'image/png');
    assert.equal(servedContentType('text/plain; charset=iso-8859-1'), 'text/plain');
    assert.equal(servedContentType('application/json'), 'application/json');
  });

  it('serves a malformed type as application/octet-stream, never as what a bare word would map to', () => {
    for (const declared of ['html', '', 'text/', '/html', 'text/html extra', 'text/h"tml']) assert.equal(servedContentType(declared), DOWNLOAD_ONLY_TYPE, declared);
  });

  it('is the list openapi.yaml gives for attachment downloads', () => {
    const responses = (loadOpenApi().raw.components as { responses: Record<string, { description: string }> }).responses;
    const described = responses.AttachmentFile!.description;
    for (const type of ACTIVE_CONTENT_TYPES) {
      if (type.endsWith('+xml')) continue;
      const named = described.includes(`\`${type}\``) || (/^text\/javascript1\.[0-5]$/.test(type) && described.includes('`text/javascript1.0` to `text/javascript1.5`'));
      assert.ok(named, `openapi.yaml's AttachmentFile response does not name ${type}`);
    }
    assert.ok(described.includes('`*/*+xml`'), 'openapi.yaml names the +xml rule');
  });
});
