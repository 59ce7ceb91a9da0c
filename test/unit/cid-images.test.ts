// The one way cid: images are resolved (src/mime/cid-images.ts): image parts named by a cid: URL become data: URIs,
// Content-IDs compare as RFC 2392 and the Content-ID header write them, and the inlined characters are bounded.
import { strict as assert } from 'node:assert';
import { contentIdKey, inlineCidImages } from '../../src/mime/cid-images.js';

const PNG = { cid: '<Logo@Example.com>', contentType: 'image/png', content: Buffer.from('png bytes') };
const PNG_URI = `data:image/png;base64,${Buffer.from('png bytes').toString('base64')}`;

describe('cid: images', () => {
  it('replaces a reference in an attribute and in a CSS url() by the image as a data: URI', () => {
    const html = '<img src="cid:logo@example.com"><td style="background: url(cid:logo@example.com)">';
    assert.equal(inlineCidImages(html, [PNG]), `<img src="${PNG_URI}"><td style="background: url(${PNG_URI})">`);
  });

  it('compares Content-IDs percent-decoded, without angle brackets and without case', () => {
    assert.equal(contentIdKey('LOGO%40example.COM'), 'logo@example.com');
    assert.equal(contentIdKey(' <logo@example.com> '), 'logo@example.com');
    assert.equal(contentIdKey('100%'), '100%', 'a stray % is compared as written');
    assert.equal(inlineCidImages('<img src=cid:Logo%40EXAMPLE.com>', [PNG]), `<img src=${PNG_URI}>`);
  });

  it('leaves references to no part, and to parts that are not images, as written', () => {
    const parts = [PNG, { cid: 'doc@example.com', contentType: 'application/pdf', content: Buffer.from('%PDF') }];
    const html = '<img src="cid:nobody@example.com"><img src="cid:doc@example.com">';
    assert.equal(inlineCidImages(html, parts), html);
  });

  it('never writes a type that could close the attribute it stands in', () => {
    const html = '<img src="cid:x@example.com">';
    assert.equal(inlineCidImages(html, [{ cid: 'x@example.com', contentType: 'image/png" onerror="alert(1)', content: Buffer.from('x') }]), html);
  });

  it('stops inlining at the budget: later references stay as written', () => {
    const html = Array.from({ length: 5 }, () => '<img src="cid:logo@example.com">').join('');
    const resolved = inlineCidImages(html, [PNG], PNG_URI.length * 3);
    assert.equal(resolved.split(PNG_URI).length - 1, 3);
    assert.equal(resolved.split('cid:logo@example.com').length - 1, 2);
  });
});
