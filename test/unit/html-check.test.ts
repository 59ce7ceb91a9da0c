// The HTML check on hand-made HTML: which caniemail features it finds, and what it reports of each, compared with what
// the test works out from the vendored caniemail data on its own (last test per client, y/n/a/u, notes).
import { strict as assert } from 'node:assert';
import { checkHtml, messageHtmlCheck, stylesheetLinks } from '../../src/mime/html-check.js';
import { loadCaniemail, type Caniemail } from '../../src/mime/caniemail.js';
import { featureIndex, UNDETECTABLE, type FeatureIndex } from '../../src/mime/html-features.js';
import type { HtmlCheckFindings, LinkedStylesheet } from '../../src/domain/html-check.js';
import type { HtmlCheckWarningJson } from '../support/api-json.js';
import { assertCaniemailWarning, CANIEMAIL, expectedSupport, RAW_FEATURES } from '../support/caniemail-expectations.js';

let data: { caniemail: Caniemail; index: FeatureIndex };

function check(html: string, stylesheets: LinkedStylesheet[] = [], inlineTypes = new Map<string, string>()): HtmlCheckFindings {
  return checkHtml(html, stylesheets, inlineTypes, data);
}

const found = (findings: HtmlCheckFindings) => new Map(findings.Warnings.map((warning) => [warning.Slug, warning.Score.Found]));

function warning(findings: HtmlCheckFindings, slug: string): HtmlCheckWarningJson {
  const entry = findings.Warnings.find((candidate) => candidate.Slug === slug);
  assert.ok(entry, `${slug} not found; found: ${[...found(findings).keys()].join(', ')}`);
  return entry;
}

const assertFeature = (findings: HtmlCheckFindings, slug: string, times: number) => assertCaniemailWarning(findings.Warnings, slug, times);

const page = (head: string, body: string) => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe('HTML check', () => {
  before(async () => {
    const caniemail = await loadCaniemail();
    data = { caniemail, index: featureIndex(caniemail.document.data) };
  });

  describe('the data', () => {
    it('is caniemail\'s API document with its update date', () => {
      assert.match(CANIEMAIL.last_update_date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
      assert.ok(CANIEMAIL.data.length > 250, `only ${CANIEMAIL.data.length} features`);
    });

    it('has a detection for every feature but those that no HTML shows', () => {
      const missing = CANIEMAIL.data.map((feature) => feature.slug).filter((slug) => !data.index.detectable.includes(slug) && UNDETECTABLE[slug] === undefined);
      assert.deepEqual(missing, [], 'features neither detected nor explained in UNDETECTABLE (a data refresh added them?)');
      assert.equal(data.index.detectable.length + Object.keys(UNDETECTABLE).length, CANIEMAIL.data.length);
    });
  });

  describe('features on hand-made fixtures', () => {
    it('flexbox in a style attribute, with or without spaces, inline-flex too', () => {
      const findings = check(page('', '<div style="display:flex">a</div><div style="DISPLAY : Flex ;">b</div><span style="display: inline-flex">c</span>'));
      assertFeature(findings, 'css-display-flex', 3);
      assertFeature(findings, 'css-display', 3);
      assert.ok(!found(findings).has('css-display-grid'));
    });

    it('grid in a <style> element, `display: grid` with a space, and grid-template-columns', () => {
      const findings = check(page('<style>.g { display: grid; grid-template-columns: 1fr 1fr; gap: 8px }</style>', '<div class="g"></div>'));
      assertFeature(findings, 'css-display-grid', 1);
      assertFeature(findings, 'css-grid-template', 1);
      assertFeature(findings, 'css-gap', 1);
      assertFeature(findings, 'html-style', 1);
    });

    it('!important in <style> and inline, spaced or not', () => {
      const findings = check(page('<style>p { color: red !important; margin: 0!important }</style>', '<p style="color: blue ! important">x</p>'));
      assertFeature(findings, 'css-important', 3);
    });

    it('@media, its media features in their prefixed and min-/max- spellings, and units in declarations only', () => {
      const css = '@media screen and (max-width: 600px) { .a { width: 100% } } '
        + '@media (-webkit-min-device-pixel-ratio: 2), (prefers-color-scheme: dark) { .b { color: #fff } } @media (width >= 40em) {}';
      const findings = check(page(`<style>${css}</style>`, ''));
      assertFeature(findings, 'css-at-media', 3);
      assertFeature(findings, 'css-at-media-device-pixel-ratio', 1);
      assertFeature(findings, 'css-at-media-prefers-color-scheme', 1);
      assertFeature(findings, 'css-unit-percent', 1);
      assert.ok(!found(findings).has('css-unit-px'), 'a px in a media query is no declaration');
      assert.ok(!found(findings).has('css-unit-em'));
    });

    it(':hover and other pseudo-classes, and CSS2\'s one-colon pseudo-elements as pseudo-elements', () => {
      const findings = check(page('<style>a:hover, a:focus { color: red } li:nth-child(2n) {} p:before { content: "" } p::after {}</style>', ''));
      assertFeature(findings, 'css-pseudo-class-hover', 1);
      assertFeature(findings, 'css-pseudo-class-focus', 1);
      assertFeature(findings, 'css-pseudo-class-nth-child', 1);
      assertFeature(findings, 'css-pseudo-element-before', 1);
      assertFeature(findings, 'css-pseudo-element-after', 1);
      assertFeature(findings, 'css-selector-grouping', 1);
      assert.ok(!found(findings).has('css-pseudo-class-before'));
    });

    it('custom properties: their declarations and var()', () => {
      const findings = check(page('<style>:root { --brand: #0a84ff; --gap:8px } .b { color: var(--brand) }</style>', '<p style="--x: 1; margin: var(--x)">y</p>'));
      assertFeature(findings, 'css-variables', 5);
    });

    it('image formats from URLs, srcset, <source type>, data URIs, CSS url() and inline parts', () => {
      const html = page('<style>.hero { background-image: url("https://cdn.example/bg.webp?v=2") }</style>', [
        '<img src="https://cdn.example/a.WEBP"><img src="https://cdn.example/logo.svg#x" srcset="https://cdn.example/logo-2x.png 2x, https://cdn.example/logo-3x.png 3x">',
        '<picture><source type="image/webp" srcset="https://cdn.example/p.webp"><img src="https://cdn.example/p.jpeg"></picture>',
        '<img src="data:image/svg+xml;base64,PHN2Zy8+"><img src="cid:Logo@Example"><td background="https://cdn.example/t.gif"></td>',
      ].join(''));
      const findings = check(html, [], new Map([['logo@example', 'image/png']]));
      assertFeature(findings, 'image-webp', 4);
      assertFeature(findings, 'image-svg', 2);
      assertFeature(findings, 'image-png', 3);
      assertFeature(findings, 'image-jpg', 1);
      assertFeature(findings, 'image-gif', 1);
      assertFeature(findings, 'image-base64', 1);
      assertFeature(findings, 'html-picture', 1);
      assertFeature(findings, 'html-srcset', 2);
    });

    it('video as an image asset only in <img>, and a malformed cid: URL read as written', () => {
      const findings = check(page('', '<img src="https://cdn.example/loop.mp4"><video><source src="https://cdn.example/clip.mp4" type="video/mp4"></video><img src="cid:%zz">'));
      assertFeature(findings, 'image-mp4', 1);
      assertFeature(findings, 'html-video', 1);
    });

    it('<form>, its inputs by type (a missing type is text) and buttons (a missing type is submit)', () => {
      const findings = check(page('', '<form action="https://x.example/s" method="post"><input name="q"><input type="checkbox" required><input type=submit><button>Go</button><textarea></textarea></form>'));
      assertFeature(findings, 'html-form', 1);
      assertFeature(findings, 'html-input-text', 1);
      assertFeature(findings, 'html-input-checkbox', 1);
      assertFeature(findings, 'html-input-submit', 1);
      assertFeature(findings, 'html-button-submit', 1);
      assertFeature(findings, 'html-required', 1);
      assertFeature(findings, 'html-textarea', 1);
    });

    it('flags <script>, event handler attributes and javascript: URLs as never supported, but not JSON-LD', () => {
      const findings = check(page('<script>track()</script><script type="module">x()</script><script type="application/ld+json">{}</script>',
        '<a href=" java\tscript:alert(1)" onclick="x()">a</a><img src="https://x.example/a.png" onerror="y()">'));
      for (const [slug, times] of [['html-script', 2], ['html-event-handler-attributes', 2], ['html-javascript-urls', 1]] as const) {
        const entry = warning(findings, slug);
        assert.equal(entry.Source, 'mail-sandbox');
        assert.equal(entry.URL, null);
        assert.deepEqual(entry.Results, []);
        assert.deepEqual(entry.Score, { Found: times, Supported: 0, Partial: 0, Unsupported: 100, Unknown: 0 });
      }
      assert.ok(!RAW_FEATURES.has('html-script'), 'caniemail now has html-script: use its data instead of this service\'s rule');
    });

    it('what Mailpit\'s regexes miss: scroll-snap-* properties, nested rules and CSS comments', () => {
      const findings = check(page('<style>/* layout */ .s { scroll-snap-type: x mandatory } .c { scroll-snap-align: start; .d { color: red } &:hover { color: blue } }</style>', ''));
      assertFeature(findings, 'css-scroll-snap', 2);
      assertFeature(findings, 'css-nesting', 2);
      assertFeature(findings, 'css-comments', 1);
    });

    it('HTML5 doctype only for <!DOCTYPE html>, comments, anchors, mailto links and the color-scheme meta', () => {
      const xhtml = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html><body></body></html>';
      assert.ok(!found(check(xhtml)).has('html-doctype'));
      const findings = check(page('<meta name="color-scheme" content="light dark">', '<!--[if mso]><table><![endif]--><a href="#top">top</a><a href="MAILTO:a@example.com">mail</a>'));
      assertFeature(findings, 'html-doctype', 1);
      assertFeature(findings, 'html-comments', 1);
      assertFeature(findings, 'html-anchor-links', 1);
      assertFeature(findings, 'html-mailto-links', 1);
      assertFeature(findings, 'html-meta-color-scheme', 1);
    });

    it('reads the CSS of linked stylesheets it is given', () => {
      const findings = check(page('<link rel="stylesheet" href="https://cdn.example/s.css">', ''), [
        { url: 'https://cdn.example/s.css', css: '.a:hover { display: flex }', error: null },
        { url: 'https://cdn.example/t.css', css: null, error: 'answered 404' },
      ]);
      assertFeature(findings, 'css-pseudo-class-hover', 1);
      assertFeature(findings, 'css-display-flex', 1);
      assertFeature(findings, 'html-link', 1);
    });
  });

  describe('what the report says of support', () => {
    it('keeps note numbers of two digits and tells yes-with-a-note and unknown from partial', () => {
      const media = warning(check(page('<style>@media screen { }</style>', '')), 'css-at-media');
      const outlookMac = media.Results.find((result) => result.Family === 'outlook' && result.Platform === 'macos');
      assert.deepEqual(outlookMac?.NoteNumbers, ['1', '10']);
      assert.equal(outlookMac?.Support, 'partial');
      assert.equal(media.Results.find((result) => result.Family === 'gmx' && result.Platform === 'desktop-webmail')?.Support, 'yes');
      const focusVisible = warning(check(page('<style>a:focus-visible {}</style>', '')), 'css-pseudo-class-focus-visible');
      assert.ok(focusVisible.Results.some((result) => result.Support === 'unknown'));
      assert.equal(focusVisible.Score.Unknown, expectedSupport('css-pseudo-class-focus-visible').score.Unknown);
    });

    it('orders warnings worst first, then by slug', () => {
      const findings = check(page('<style>.a:hover { display: grid; color: var(--x) } @media (prefers-color-scheme: dark) {}</style>', '<div style="padding: 4px; margin: 0"><script>x()</script><form></form></div>'));
      const order = findings.Warnings.map((entry) => [entry.Score.Unsupported, entry.Score.Partial, entry.Slug] as const);
      const sorted = [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1] || (a[2] < b[2] ? -1 : 1));
      assert.deepEqual(order, sorted);
      assert.equal(findings.Warnings[0]!.Slug, 'html-script');
    });

    it('keeps the totals within 0-100 when a feature is used far more often than there are elements', () => {
      const styles = Array.from({ length: 500 }, (_, n) => `.c${n} { display: grid !important; color: var(--c${n}) }`).join('\n');
      const findings = check(`<style>${styles}</style><div>one element</div>`);
      const { Supported, Partial, Unsupported, Nodes } = findings.Total;
      assert.equal(Nodes, 2);
      for (const value of [Supported, Partial, Unsupported]) assert.ok(value >= 0 && value <= 100, `total out of range: ${JSON.stringify(findings.Total)}`);
      assert.equal(Math.round((Supported + Partial + Unsupported) * 100) / 100, 100);
      assert.equal(Unsupported, warning(findings, 'css-variables').Score.Unsupported, 'the worst feature, at full weight');
    });

    it('counts every feature it can find, plus its own rules, as tests; and elements as nodes', () => {
      const findings = check(page('', '<table><tr><td>x</td></tr></table>'));
      assert.equal(findings.Total.Tests, data.index.detectable.length + 3);
      assert.equal(findings.Total.Nodes, 6);
      assert.deepEqual(Object.keys(findings.Platforms), [...Object.keys(findings.Platforms)].sort());
      assert.ok(findings.Platforms.windows?.includes('Outlook'));
    });
  });

  describe('hostile CSS', () => {
    it('survives brackets nested deeper than the parser\'s stack, keeping what it read before', () => {
      const deep = `.a { color: red } .b { width: ${'calc('.repeat(200_000)}1px${')'.repeat(200_000)} }`;
      const findings = check(page(`<style>${deep}</style>`, ''));
      assert.ok(found(findings).has('html-style'));
    });

    it('reads nested rules only a few levels deep again', () => {
      const nested = `${'.n { '.repeat(5000)}color: red${' }'.repeat(5000)}`;
      const started = Date.now();
      const findings = check(page(`<style>${nested}</style>`, ''));
      assert.ok(found(findings).has('css-nesting'));
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    });
  });

  describe('linked stylesheets and the message', () => {
    it('finds <link rel=stylesheet> hrefs once each, up to the limit, resolved against <base href>', () => {
      const html = page('<base href="https://news.example/issue/"><link rel="preload stylesheet" href="css/a.css"><link rel="Stylesheet" href="css/a.css">'
        + '<link rel="icon" href="i.ico"><link rel="stylesheet" href="https://cdn.example/b.css"><link rel="stylesheet" href="c.css"><link rel="stylesheet" href="d.css">', '');
      assert.deepEqual(stylesheetLinks(html, 3), [
        { href: 'css/a.css', url: 'https://news.example/issue/css/a.css' },
        { href: 'https://cdn.example/b.css', url: 'https://cdn.example/b.css' },
        { href: 'c.css', url: 'https://news.example/issue/c.css' },
      ]);
      assert.deepEqual(stylesheetLinks('<link rel="stylesheet" href="relative.css">', 5), [{ href: 'relative.css', url: null }]);
    });

    it('answers no-html for a text-only message, the links to fetch first, then the findings', async () => {
      const mime = (type: string, body: string) => Buffer.from(`From: a@example.com\r\nTo: b@example.com\r\nSubject: t\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n${body}\r\n`);
      assert.deepEqual(await messageHtmlCheck(mime('text/plain', 'hello'), null, 5), { kind: 'no-html' });
      const linked = mime('text/html', '<link rel="stylesheet" href="https://cdn.example/s.css"><p>x</p>');
      assert.deepEqual(await messageHtmlCheck(linked, null, 5), { kind: 'stylesheets-linked', links: [{ href: 'https://cdn.example/s.css', url: 'https://cdn.example/s.css' }] });
      const outcome = await messageHtmlCheck(linked, [{ url: 'https://cdn.example/s.css', css: 'p { display: flex }', error: null }], 5);
      assert.equal(outcome.kind, 'checked');
      assert.ok(outcome.kind === 'checked' && outcome.findings.Warnings.some((entry) => entry.Slug === 'css-display-flex'));
    });
  });
});
