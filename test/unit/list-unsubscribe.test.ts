// List-Unsubscribe / List-Unsubscribe-Post reading: what becomes a link, and every RFC 2369 / RFC 8058 problem named.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseListUnsubscribe } from '../../src/mime/list-unsubscribe.js';
import type { ListUnsubscribe } from '../../src/domain/message-view.js';

const parse = (listUnsubscribe: string[], listUnsubscribePost: string[] = []): ListUnsubscribe | null =>
  parseListUnsubscribe({ listUnsubscribe, listUnsubscribePost });

/** For cases where the whole object does not matter: one error must be among those reported. */
function assertHasError(result: ListUnsubscribe | null, expected: string): void {
  assert.ok(result, 'expected a result');
  assert.ok(result.errors?.split('; ').includes(expected), `expected error "${expected}" in "${result.errors}"`);
}

describe('parseListUnsubscribe', () => {
  describe('presence', () => {
    it('returns null when neither header is present', () => {
      assert.equal(parse([]), null);
    });

    it('reports an empty header instead of treating it as absent', () => {
      assert.deepEqual(parse(['']), {
        header: '', errors: 'List-Unsubscribe header is empty',
      });
      assert.deepEqual(parse(['  \r\n\t ']), {
        header: '', errors: 'List-Unsubscribe header is empty',
      });
    });
  });

  describe('well-formed headers', () => {
    it('reads a single https URI with no errors field', () => {
      const result = parse(['<https://example.com/unsub?u=1&id=2>']);
      assert.deepEqual(result, { header: '<https://example.com/unsub?u=1&id=2>', links: ['https://example.com/unsub?u=1&id=2'] });
      assert.equal(result !== null && 'errors' in result, false);
    });

    it('keeps several URIs in header order, with or without space after the comma', () => {
      const header = '<mailto:unsub@example.com?subject=unsubscribe>,<https://example.com/u>, <http://example.com/h>';
      assert.deepEqual(parse([header]), {
        header,
        links: ['mailto:unsub@example.com?subject=unsubscribe', 'https://example.com/u', 'http://example.com/h'],
      });
    });

    it('keeps the URI text as written rather than the WHATWG-normalised form', () => {
      assert.deepEqual(parse(['<HTTPS://Example.COM/U%7e>'])?.links, ['HTTPS://Example.COM/U%7e']);
    });

    it('drops duplicate URIs, keeping the first position', () => {
      assert.deepEqual(parse(['<https://a.example/u>, <mailto:x@a.example>, <https://a.example/u>'])?.links,
        ['https://a.example/u', 'mailto:x@a.example']);
    });

    it('trims the received value', () => {
      assert.equal(parse(['   <https://a.example/u>  '])?.header, '<https://a.example/u>');
    });

    it('tolerates empty list elements between commas', () => {
      assert.deepEqual(parse([', <https://a.example/u>,, <mailto:x@a.example> ,']), {
        header: ', <https://a.example/u>,, <mailto:x@a.example> ,',
        links: ['https://a.example/u', 'mailto:x@a.example'],
      });
    });
  });

  describe('folding and whitespace', () => {
    it('unfolds CRLF and bare LF folding between URIs', () => {
      assert.deepEqual(parse(['<mailto:u@example.com>,\r\n <https://example.com/u>,\n\t<https://example.com/v>']), {
        header: '<mailto:u@example.com>, <https://example.com/u>,\t<https://example.com/v>',
        links: ['mailto:u@example.com', 'https://example.com/u', 'https://example.com/v'],
      });
    });

    it('ignores whitespace and folding inside angle brackets (RFC 2369)', () => {
      assert.deepEqual(parse(['<https://example.com/very/long\r\n /path?a=1&\r\n\tb=2>']), {
        header: '<https://example.com/very/long /path?a=1&\tb=2>',
        links: ['https://example.com/very/long/path?a=1&b=2'],
      });
    });
  });

  describe('comments', () => {
    it('ignores comments, including nested ones and quoted parentheses', () => {
      const header = '<https://example.com/u> (Unsubscribe (web)), (by \\) mail) <mailto:u@example.com>';
      assert.deepEqual(parse([header]), { header, links: ['https://example.com/u', 'mailto:u@example.com'] });
    });

    it('treats parentheses inside angle brackets as part of the URI', () => {
      assert.deepEqual(parse(['<https://example.com/u_(1)>'])?.links, ['https://example.com/u_(1)']);
    });

    it('reports a comment that never closes but keeps the URIs before it', () => {
      assert.deepEqual(parse(['<https://example.com/u> (oops, <mailto:u@example.com>']), {
        header: '<https://example.com/u> (oops, <mailto:u@example.com>',
        links: ['https://example.com/u'],
        errors: 'unclosed comment: "(oops, <mailto:u@example.com>"',
      });
    });
  });

  describe('text outside angle brackets', () => {
    it('reports the stray text and still extracts the bracketed URIs', () => {
      assert.deepEqual(parse(['Click here: <https://example.com/u>, or   write to <mailto:u@example.com> today']), {
        header: 'Click here: <https://example.com/u>, or   write to <mailto:u@example.com> today',
        links: ['https://example.com/u', 'mailto:u@example.com'],
        errors: 'text outside angle brackets: "Click here:"; text outside angle brackets: "or write to"; '
          + 'text outside angle brackets: "today"',
      });
    });

    it('reports a bare URL without extracting it, since RFC 2369 clients would not find it', () => {
      assert.deepEqual(parse(['https://example.com/unsubscribe']), {
        header: 'https://example.com/unsubscribe',
        errors: 'text outside angle brackets: "https://example.com/unsubscribe"; List-Unsubscribe has no usable URI',
      });
    });

    it('reports each bare URL of a comma-separated list', () => {
      assert.equal(parse(['mailto:u@example.com, https://example.com/u'])?.errors,
        'text outside angle brackets: "mailto:u@example.com"; text outside angle brackets: "https://example.com/u"; '
        + 'List-Unsubscribe has no usable URI');
    });

    it('reports a stray closing bracket as outside text', () => {
      assert.deepEqual(parse(['<https://example.com/u>>']), {
        header: '<https://example.com/u>>',
        links: ['https://example.com/u'],
        errors: 'text outside angle brackets: ">"',
      });
    });

    it('reports an unclosed "<" and does not guess where its URI ends', () => {
      assert.deepEqual(parse(['<mailto:u@example.com>, <https://example.com/u']), {
        header: '<mailto:u@example.com>, <https://example.com/u',
        links: ['mailto:u@example.com'],
        errors: '"<" without a closing ">": "<https://example.com/u"',
      });
    });

    it('reports a missing comma between URIs but keeps both', () => {
      assert.deepEqual(parse(['<https://example.com/u> <mailto:u@example.com>']), {
        header: '<https://example.com/u> <mailto:u@example.com>',
        links: ['https://example.com/u', 'mailto:u@example.com'],
        errors: 'missing comma before <mailto:u@example.com>',
      });
    });

    it('does not count a comment as a separator', () => {
      assertHasError(parse(['<https://a.example/u> (web) <mailto:u@a.example>']), 'missing comma before <mailto:u@a.example>');
    });

    it('shortens very long stray text in the error', () => {
      const errors = parse([`${'x'.repeat(500)} <https://a.example/u>`])?.errors ?? '';
      assert.equal(errors, `text outside angle brackets: "${'x'.repeat(80)}…"`);
    });
  });

  describe('URI validity', () => {
    it('reports relative URIs and drops them', () => {
      assert.deepEqual(parse(['<example.com/unsub>, <//example.com/u>, </unsub>, <https://example.com/u>']), {
        header: '<example.com/unsub>, <//example.com/u>, </unsub>, <https://example.com/u>',
        links: ['https://example.com/u'],
        errors: 'relative URI <example.com/unsub>: must be absolute; relative URI <//example.com/u>: must be absolute; '
          + 'relative URI </unsub>: must be absolute',
      });
    });

    it('reports URIs the WHATWG parser rejects', () => {
      assert.deepEqual(parse(['<http://>, <https://exa mple.com:99999/u>, <https://[::1/u>']), {
        header: '<http://>, <https://exa mple.com:99999/u>, <https://[::1/u>',
        errors: 'not a valid URI: <http://>; not a valid URI: <https://example.com:99999/u>; not a valid URI: <https://[::1/u>; '
          + 'List-Unsubscribe has no usable URI',
      });
    });

    it('reports empty brackets', () => {
      assert.deepEqual(parse(['<>, < >, <https://example.com/u>']), {
        header: '<>, < >, <https://example.com/u>',
        links: ['https://example.com/u'],
        errors: 'empty <>; empty <>',
      });
    });

    it('reports a javascript: URI and keeps it out of links', () => {
      assert.deepEqual(parse(['<javascript:alert(document.cookie)>, <https://example.com/u>']), {
        header: '<javascript:alert(document.cookie)>, <https://example.com/u>',
        links: ['https://example.com/u'],
        errors: 'unsupported scheme "javascript:" in <javascript:alert(document.cookie)>: only http, https and mailto are allowed',
      });
    });

    it('reports other schemes the same way', () => {
      const result = parse(['<ftp://example.com/u>, <data:text/html,hi>, <tel:+123>']);
      assert.equal(result?.links, undefined);
      assert.equal(result?.errors,
        'unsupported scheme "ftp:" in <ftp://example.com/u>: only http, https and mailto are allowed; '
        + 'unsupported scheme "data:" in <data:text/html,hi>: only http, https and mailto are allowed; '
        + 'unsupported scheme "tel:" in <tel:+123>: only http, https and mailto are allowed; '
        + 'List-Unsubscribe has no usable URI');
    });

    it('accepts scheme names in any case', () => {
      assert.deepEqual(parse(['<MAILTO:u@example.com>, <Https://example.com/u>'])?.links,
        ['MAILTO:u@example.com', 'Https://example.com/u']);
    });
  });

  describe('mailto URIs', () => {
    it('reports a mailto without an address', () => {
      assert.deepEqual(parse(['<mailto:?subject=unsubscribe>']), {
        header: '<mailto:?subject=unsubscribe>',
        errors: 'mailto URI without an address: <mailto:?subject=unsubscribe>; List-Unsubscribe has no usable URI',
      });
      assertHasError(parse(['<mailto:>']), 'mailto URI without an address: <mailto:>');
    });

    it('accepts the address in a to= field (RFC 6068), in any case', () => {
      assert.deepEqual(parse(['<mailto:?To=unsub%40example.com&subject=x>']), {
        header: '<mailto:?To=unsub%40example.com&subject=x>',
        links: ['mailto:?To=unsub%40example.com&subject=x'],
      });
    });

    it('does not take another field for the address', () => {
      assertHasError(parse(['<mailto:?cc=u@example.com>']), 'mailto URI without an address: <mailto:?cc=u@example.com>');
    });

    it('accepts percent-encoded, plus-addressed and several addresses', () => {
      assert.equal(parse(['<mailto:list%2Bunsub%40example.com,other@example.com?subject=a+b>'])?.errors, undefined);
      assert.equal(parse(['<mailto:u+tag@localhost>'])?.errors, undefined);
    });

    it('reports an address without @ or with an empty side', () => {
      assertHasError(parse(['<mailto:unsubscribe>']), 'mailto URI with an invalid address "unsubscribe": <mailto:unsubscribe>');
      assertHasError(parse(['<mailto:@example.com>']), 'mailto URI with an invalid address "@example.com": <mailto:@example.com>');
      assertHasError(parse(['<mailto:u@example.com,nobody>']),
        'mailto URI with an invalid address "nobody": <mailto:u@example.com,nobody>');
    });

    it('reports malformed percent-encoding', () => {
      assertHasError(parse(['<mailto:u%E0%A4%A@example.com>']), 'malformed percent-encoding in <mailto:u%E0%A4%A@example.com>');
    });
  });

  describe('multiple List-Unsubscribe headers', () => {
    it('uses the first and reports the repeat', () => {
      assert.deepEqual(parse(['<https://first.example/u>', '<https://second.example/u>']), {
        header: '<https://first.example/u>',
        links: ['https://first.example/u'],
        errors: 'multiple List-Unsubscribe headers',
      });
    });

    it('reports the repeat before problems inside the first header', () => {
      assert.equal(parse(['junk <https://first.example/u>', '<https://second.example/u>'])?.errors,
        'multiple List-Unsubscribe headers; text outside angle brackets: "junk"');
    });
  });

  describe('one-click (RFC 8058)', () => {
    const oneClick = 'List-Unsubscribe=One-Click';

    it('accepts the exact pair with an https URI', () => {
      assert.deepEqual(parse(['<mailto:u@example.com>, <https://example.com/u>'], [oneClick]), {
        header: '<mailto:u@example.com>, <https://example.com/u>',
        header_post: oneClick,
        links: ['mailto:u@example.com', 'https://example.com/u'],
      });
    });

    it('compares the name case-insensitively and trims whitespace and folding', () => {
      const result = parse(['<https://example.com/u>'], ['\r\n  list-UNSUBSCRIBE=One-Click \r\n ']);
      assert.equal(result?.header_post, 'list-UNSUBSCRIBE=One-Click');
      assert.equal(result?.errors, undefined);
    });

    for (const bad of ['List-Unsubscribe=one-click', 'List-Unsubscribe = One-Click', 'List-Unsubscribe=One-Click&x=1',
      'One-Click', 'List-Unsubscribe', 'Unsubscribe=One-Click', '']) {
      it(`rejects the value "${bad}"`, () => {
        assert.deepEqual(parse(['<https://example.com/u>'], [bad]), {
          header: '<https://example.com/u>',
          header_post: bad,
          links: ['https://example.com/u'],
          errors: `List-Unsubscribe-Post must be "List-Unsubscribe=One-Click", not "${bad}"`,
        });
      });
    }

    it('needs an https URI: a mailto alone is not enough', () => {
      assert.deepEqual(parse(['<mailto:u@example.com>'], [oneClick]), {
        header: '<mailto:u@example.com>',
        header_post: oneClick,
        links: ['mailto:u@example.com'],
        errors: 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe',
      });
    });

    it('reports an http URI, and the missing https one', () => {
      assert.deepEqual(parse(['<http://example.com/u>'], [oneClick]), {
        header: '<http://example.com/u>',
        header_post: oneClick,
        links: ['http://example.com/u'],
        errors: 'List-Unsubscribe-Post with an http URI <http://example.com/u>: one-click needs https; '
          + 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe',
      });
    });

    it('reports an http URI even when an https one is present too', () => {
      assert.equal(parse(['<https://example.com/u>, <http://example.com/h>'], [oneClick])?.errors,
        'List-Unsubscribe-Post with an http URI <http://example.com/h>: one-click needs https');
    });

    it('does not count an https URI that failed validation or sat outside brackets', () => {
      assertHasError(parse(['https://example.com/u'], [oneClick]), 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe');
      assertHasError(parse(['<https://>'], [oneClick]), 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe');
    });

    it('checks https even when the Post value itself is wrong', () => {
      assert.equal(parse(['<mailto:u@example.com>'], ['yes'])?.errors,
        'List-Unsubscribe-Post must be "List-Unsubscribe=One-Click", not "yes"; '
        + 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe');
    });

    it('does not require https without List-Unsubscribe-Post', () => {
      assert.equal(parse(['<http://example.com/u>'])?.errors, undefined);
    });

    it('reports List-Unsubscribe-Post without List-Unsubscribe', () => {
      assert.deepEqual(parse([], [oneClick]), {
        header_post: oneClick,
        errors: 'List-Unsubscribe-Post without List-Unsubscribe',
      });
      assert.deepEqual(parse([], ['nonsense']), {
        header_post: 'nonsense',
        errors: 'List-Unsubscribe-Post must be "List-Unsubscribe=One-Click", not "nonsense"; '
          + 'List-Unsubscribe-Post without List-Unsubscribe',
      });
    });

    it('uses the first of several List-Unsubscribe-Post headers and reports the repeat', () => {
      assert.deepEqual(parse(['<https://example.com/u>'], [oneClick, 'bogus']), {
        header: '<https://example.com/u>',
        header_post: oneClick,
        links: ['https://example.com/u'],
        errors: 'multiple List-Unsubscribe-Post headers',
      });
    });
  });

  it('never throws, and only ever returns absolute http, https or mailto links', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', '>', ',', '(', ')', '\\', ' ', '\r\n ', 'mailto:', 'https://', 'http:', '@', '?to=', '%', 'javascript:'),
      fc.string({ maxLength: 8 }),
    );
    const header = fc.array(piece, { maxLength: 20 }).map((pieces) => pieces.join(''));
    fc.assert(fc.property(fc.array(header, { maxLength: 2 }), fc.array(header, { maxLength: 2 }), (lists, posts) => {
      const result = parseListUnsubscribe({ listUnsubscribe: lists, listUnsubscribePost: posts });
      if (lists.length === 0 && posts.length === 0) return result === null;
      assert.ok(result);
      if (result.links !== undefined) assert.ok(result.links.length > 0);
      for (const link of result.links ?? []) {
        assert.ok(['http:', 'https:', 'mailto:'].includes(new URL(link).protocol), link);
        assert.ok(result.header?.replace(/\s+/g, '').includes(`<${link}>`), link);
      }
      assert.notEqual(result.errors, '');
      assert.equal(result.errors?.includes('multiple List-Unsubscribe headers') ?? false, lists.length > 1);
      return true;
    }));
  });
});
