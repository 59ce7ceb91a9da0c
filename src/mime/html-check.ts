// The HTML check: reads a message's HTML with an HTML parser and its CSS (<style>, style="", linked stylesheets) with a
// CSS parser, counts each caniemail feature it uses, and reports each one's support per email client.
// Runs only inside the content worker pool (src/content/content-worker.ts), never on the event loop.
import { Parser } from 'htmlparser2';
import { parse as parseCss, walk as walkCss, type CssNode, type Declaration, type Selector, type SelectorList, type WalkContext } from 'css-tree';
import type { components } from '../contract/api-types.js';
import type { HtmlCheckFindings, HtmlCheckOutcome, LinkedStylesheet, StylesheetLink } from '../domain/html-check.js';
import { contentIdKey } from './cid-images.js';
import { byText, loadCaniemail, type Caniemail } from './caniemail.js';
import { featureIndex, mediaFeatureName, type FeatureIndex, type SpecialConstruct } from './html-features.js';
import { parseMime } from './parse-email.js';

type Schemas = components['schemas'];

/**
 * Constructs no email client runs, whatever caniemail says of anything else: mail is never a place for scripts. They
 * are this service's own rules, with slugs caniemail does not use.
 */
const NEVER_SUPPORTED: Record<string, { title: string; description: string }> = {
  'html-script': {
    title: '<script> element',
    description: 'No email client runs JavaScript: `<script>` elements are removed, and some clients drop the message\'s HTML altogether. '
      + 'Data blocks (`<script type="application/ld+json">`, as in Gmail\'s schema.org markup) are not counted.',
  },
  'html-event-handler-attributes': {
    title: 'Event handler attributes (onclick, onload, …)',
    description: 'No email client runs JavaScript: `on…` attributes never fire and are stripped.',
  },
  'html-javascript-urls': {
    title: 'javascript: URLs',
    description: 'No email client runs JavaScript: a `javascript:` link or source does nothing and is removed or neutralised.',
  },
};

/** Script types that run (HTML's JavaScript MIME types and modules); anything else in `type` is a data block. */
const SCRIPT_TYPES = /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/(javascript1\.[0-5]|jscript|livescript))$/;

/** Attributes that hold a URL a `javascript:` could hide in. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'background', 'poster', 'data', 'xlink:href', 'cite', 'longdesc']);

/** CSS2 wrote these pseudo-elements with one colon; they are the same features. */
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter']);

/** Spellings of image formats (file extensions, MIME subtypes) → caniemail's name of the format. */
const FORMAT_SPELLINGS: Record<string, string> = {
  jpeg: 'jpg', jpe: 'jpg', jfif: 'jpg', pjpeg: 'jpg', tif: 'tiff', heic: 'heif', 'svg+xml': 'svg', 'x-icon': 'ico', 'vnd.microsoft.icon': 'ico',
};

/**
 * How deep nested style rules that the CSS parser leaves unread (`.a { .b { } }`) are read again (depth > 0: the CSS
 * read is the inside of a style rule). Each level is a substring of the one above, so a stranger's deep nesting would
 * otherwise cost time quadratic in its depth.
 */
const NESTED_RULE_DEPTH = 4;

/** Counts of each slug found, and the elements seen. */
class Findings {
  readonly counts = new Map<string, number>();
  nodes = 0;

  add(slugs: readonly string[] | undefined): void {
    for (const slug of slugs ?? []) this.counts.set(slug, (this.counts.get(slug) ?? 0) + 1);
  }
}

/** Splits a srcset into its URLs, as HTML's srcset parsing does (a URL may contain commas; descriptors follow spaces). */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  for (const candidate of srcset.matchAll(/[\s,]*([^\s]+)[^,]*/g)) {
    const url = candidate[1]!.replace(/,+$/, '');
    if (url !== '') urls.push(url);
  }
  return urls;
}

/** The scanner of one message's HTML and CSS against the feature index. */
class HtmlScanner {
  readonly findings = new Findings();
  private readonly styleSheets: string[] = [];

  constructor(readonly index: FeatureIndex, private readonly inlineImageTypes: ReadonlyMap<string, string>) {}

  special(construct: SpecialConstruct): void {
    this.findings.add(this.index.special.get(construct));
  }

  private imageType(type: string): void {
    const subtype = /^image\/([^;\s]+)/i.exec(type.trim())?.[1]?.toLowerCase();
    if (subtype) this.findings.add(this.index.imageFormats.get(FORMAT_SPELLINGS[subtype] ?? subtype));
  }

  /** An image's URL: its format from a data URI's type, an inline part's type, or the file extension. */
  private image(reference: string): void {
    const url = reference.trim();
    const data = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(url);
    if (data) {
      if (/;base64/i.test(data[2]!) && /^image\//i.test(data[1]!)) this.special('base64-images');
      this.imageType(data[1]!);
      return;
    }
    if (/^cid:/i.test(url)) {
      const type = this.inlineImageTypes.get(contentIdKey(url.slice(4)));
      if (type) this.imageType(type);
      return;
    }
    const path = url.split(/[?#]/, 1)[0]!;
    const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
    if (extension) this.findings.add(this.index.imageFormats.get(FORMAT_SPELLINGS[extension] ?? extension));
  }

  private element(name: string, attributes: Record<string, string>): void {
    this.findings.nodes++;
    this.findings.add(this.index.elements.get(name));
    if (name === 'input' || name === 'button') {
      const type = (attributes.type ?? '').trim().toLowerCase() || (name === 'input' ? 'text' : 'submit');
      this.findings.add(this.index.elements.get(`${name}[type=${type}]`));
    }
    for (const [attribute, value] of Object.entries(attributes)) {
      this.findings.add(this.index.attributes.get(attribute));
      if (/^on[a-z]+$/.test(attribute)) this.findings.add(['html-event-handler-attributes']);
      // Browsers ignore white space and control characters inside a URL's scheme.
      if (URL_ATTRIBUTES.has(attribute) && value.replace(/[\s\p{Cc}]/gu, '').toLowerCase().startsWith('javascript:')) {
        this.findings.add(['html-javascript-urls']);
      }
    }
    if (name === 'script' && SCRIPT_TYPES.test((attributes.type ?? '').trim().toLowerCase())) this.findings.add(['html-script']);
    if (name === 'a' && attributes.href !== undefined) {
      const href = attributes.href.trim();
      if (href.startsWith('#')) this.special('anchor-links');
      if (/^mailto:/i.test(href)) this.special('mailto-links');
    }
    if (name === 'meta' && /^(color-scheme|supported-color-schemes)$/i.test((attributes.name ?? '').trim())) this.special('meta-color-scheme');
    if (name === 'img' && attributes.src !== undefined) this.image(attributes.src);
    if ((name === 'img' || name === 'source') && attributes.srcset !== undefined) srcsetUrls(attributes.srcset).forEach((url) => this.image(url));
    if (name === 'source' && attributes.type !== undefined) this.imageType(attributes.type);
    if (attributes.background !== undefined) this.image(attributes.background);
    if (attributes.style !== undefined) this.css(attributes.style, 'declarationList', 0);
  }

  /** Reads the HTML; the CSS of its <style> elements is read after it, with the linked stylesheets. */
  html(html: string): void {
    let style: string[] | null = null;
    const parser = new Parser({
      onopentag: (name, attributes, isImplied) => {
        if (isImplied) return;
        this.element(name, attributes);
        if (name === 'style') style = [];
      },
      ontext: (text) => style?.push(text),
      onclosetag: (name) => {
        if (name !== 'style' || !style) return;
        this.styleSheets.push(style.join(''));
        style = null;
      },
      oncomment: () => this.special('html-comments'),
      onprocessinginstruction: (name, data) => {
        // HTML5's doctype has no public or system identifier (or the legacy-compat one).
        if (name.toLowerCase() === '!doctype' && /^!doctype\s+html\s*(system\s+["']about:legacy-compat["']\s*)?$/i.test(data)) this.special('html5-doctype');
      },
    }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
    parser.write(html);
    parser.end();
    for (const css of this.styleSheets) this.css(css, 'stylesheet', 0);
  }

  /**
   * Reads one piece of CSS. The CSS parser recovers from syntax errors as browsers do; CSS it still cannot read (its
   * recursion deeper than the stack, on a stranger's thousands of nested brackets) is left out, keeping what was
   * counted before, rather than failing the whole check.
   */
  css(css: string, context: 'stylesheet' | 'declarationList', depth: number): void {
    let ast: CssNode;
    try {
      ast = parseCss(css, { context, parseValue: true, parseCustomProperty: false, onComment: () => this.special('css-comments') });
    } catch {
      return;
    }
    try {
      walkCss(ast, cssVisitor(this, depth));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }

  declaration(node: Declaration): void {
    const property = node.property.toLowerCase();
    if (property.startsWith('--')) this.special('custom-properties');
    else this.findings.add(this.index.properties.get(property));
    if (node.important) this.special('important');
  }

  /** A node inside a declaration's value. */
  value(node: CssNode, property: string): void {
    switch (node.type) {
      case 'Identifier': {
        const keyword = node.name.toLowerCase();
        this.findings.add(this.index.propertyValues.get(`${property}:${keyword}`));
        for (const { slug, properties } of this.index.keywords.get(keyword) ?? []) {
          if (!properties || properties.has(property)) this.findings.add([slug]);
        }
        break;
      }
      case 'Function':
        this.findings.add(this.index.functions.get(node.name.toLowerCase()));
        break;
      case 'Dimension':
        this.findings.add(this.index.units.get(node.unit.toLowerCase()));
        break;
      case 'Percentage':
        this.findings.add(this.index.units.get('%'));
        break;
      case 'Url':
        this.image(node.value);
        break;
    }
  }

  selectorList(node: SelectorList): void {
    if (node.children.size > 1) this.findings.add(this.index.selectorParts.get('grouping'));
  }

  /** Simple selectors and combinators; a compound of two or more classes, ids or attributes is chaining. */
  selector(node: Selector): void {
    let qualifiers = 0;
    const endCompound = () => {
      if (qualifiers >= 2) this.findings.add(this.index.selectorParts.get('chaining'));
      qualifiers = 0;
    };
    for (const part of node.children) {
      switch (part.type) {
        case 'TypeSelector':
          this.findings.add(this.index.selectorParts.get(part.name === '*' ? 'universal' : 'type'));
          break;
        case 'ClassSelector':
          this.findings.add(this.index.selectorParts.get('class'));
          qualifiers++;
          break;
        case 'IdSelector':
          this.findings.add(this.index.selectorParts.get('id'));
          qualifiers++;
          break;
        case 'AttributeSelector':
          this.findings.add(this.index.selectorParts.get('attribute'));
          qualifiers++;
          break;
        case 'Combinator': {
          const combinator = { ' ': 'descendant', '>': 'child', '+': 'adjacent-sibling', '~': 'general-sibling' }[part.name];
          if (combinator) this.findings.add(this.index.selectorParts.get(combinator));
          endCompound();
          break;
        }
      }
    }
    endCompound();
  }

  result(): Findings {
    return this.findings;
  }
}

/** What the CSS walk does at each node; css-tree hands the walk's context (the enclosing rule, at-rule, declaration) as `this`. */
function cssVisitor(scanner: HtmlScanner, depth: number): (this: WalkContext, node: CssNode) => void {
  return function (node) {
    if (this.atrule?.name.toLowerCase() === 'font-face' && node.type !== 'Atrule') return;
    switch (node.type) {
      case 'Atrule':
        scanner.findings.add(scanner.index.atRules.get(node.name.toLowerCase()));
        break;
      case 'Feature':
        if (this.atrulePrelude) scanner.findings.add(scanner.index.mediaFeatures.get(mediaFeatureName(node.name)));
        break;
      case 'FeatureRange':
        for (const side of [node.left, node.middle, node.right]) {
          if (side?.type === 'Identifier') scanner.findings.add(scanner.index.mediaFeatures.get(mediaFeatureName(side.name)));
        }
        break;
      case 'Rule':
        if (this.rule || depth > 0) scanner.special('nesting');
        break;
      case 'SelectorList':
        scanner.selectorList(node);
        break;
      case 'Selector':
        scanner.selector(node);
        break;
      case 'PseudoClassSelector': {
        const name = node.name.toLowerCase();
        if (LEGACY_PSEUDO_ELEMENTS.has(name)) scanner.findings.add(scanner.index.pseudoElements.get(name));
        else scanner.findings.add(scanner.index.pseudoClasses.get(name));
        break;
      }
      case 'PseudoElementSelector':
        scanner.findings.add(scanner.index.pseudoElements.get(node.name.toLowerCase()));
        break;
      case 'Declaration':
        if (!this.atrulePrelude) scanner.declaration(node);
        break;
      case 'Raw':
        // Nested style rules without `&`, which the parser leaves unread: read again, each of their rules is nesting.
        if (this.rule && this.declaration === null && node.value.includes('{')) {
          if (depth < NESTED_RULE_DEPTH) scanner.css(node.value, 'stylesheet', depth + 1);
          else scanner.special('nesting');
        }
        break;
      default:
        if (this.declaration && !this.atrulePrelude) scanner.value(node, this.declaration.property.toLowerCase());
    }
  };
}

/** Highest share of unsupported first, then partial, then by slug: the same message always reads the same. */
function worstFirst(a: Schemas['HtmlCheckWarning'], b: Schemas['HtmlCheckWarning']): number {
  return b.Score.Unsupported - a.Score.Unsupported || b.Score.Partial - a.Score.Partial || byText(a.Slug, b.Slug);
}

function warningOf(slug: string, found: number, caniemail: Caniemail): Schemas['HtmlCheckWarning'] | null {
  const own = NEVER_SUPPORTED[slug];
  if (own) {
    return {
      Slug: slug, Title: own.title, Description: own.description, URL: null, Category: 'html', Tags: [], Source: 'mail-sandbox',
      Results: [], NotesByNumber: {}, Score: { Found: found, Supported: 0, Partial: 0, Unsupported: 100, Unknown: 0 },
    };
  }
  const support = caniemail.features.get(slug);
  if (!support) return null;
  const { feature } = support;
  const score: Schemas['HtmlCheckScore'] = { Found: found, ...support.shares };
  return {
    Slug: slug, Title: feature.title, Description: feature.description ?? '', URL: feature.url, Category: feature.category,
    Tags: feature.tags ?? [], Source: 'caniemail', Results: support.results, NotesByNumber: feature.notes_by_num ?? {}, Score: score,
  };
}

/**
 * Totals in 0–100: the worst feature decides, each weighted by how much of the message uses it (found / elements,
 * at most 1, so a feature used more often than there are elements cannot push a total past 100).
 */
function totalOf(warnings: Schemas['HtmlCheckWarning'][], tests: number, nodes: number): HtmlCheckFindings['Total'] {
  let unsupported = 0;
  let partial = 0;
  for (const { Score } of warnings) {
    const weight = nodes === 0 ? 1 : Math.min(1, Score.Found / nodes);
    unsupported = Math.max(unsupported, Score.Unsupported * weight);
    partial = Math.max(partial, Score.Partial * weight);
  }
  const Unsupported = Math.round(unsupported * 100) / 100;
  const Partial = Math.round(Math.min(partial, 100 - Unsupported) * 100) / 100;
  return { Tests: tests, Nodes: nodes, Supported: Math.round((100 - Unsupported - Partial) * 100) / 100, Partial, Unsupported };
}

let indexed: { caniemail: Caniemail; index: FeatureIndex } | null = null;

async function caniemailIndex(): Promise<{ caniemail: Caniemail; index: FeatureIndex }> {
  if (!indexed) {
    const caniemail = await loadCaniemail();
    indexed = { caniemail, index: featureIndex(caniemail.document.data) };
  }
  return indexed;
}

/** Checks HTML with the CSS of its linked stylesheets; inline images (cid:) are typed by their MIME parts. */
export function checkHtml(
  html: string, stylesheets: readonly LinkedStylesheet[], inlineImageTypes: ReadonlyMap<string, string>,
  { caniemail, index }: { caniemail: Caniemail; index: FeatureIndex },
): HtmlCheckFindings {
  const scanner = new HtmlScanner(index, inlineImageTypes);
  scanner.html(html);
  for (const { css } of stylesheets) if (css !== null) scanner.css(css, 'stylesheet', 0);
  const findings = scanner.result();
  const warnings = [...findings.counts]
    .map(([slug, found]) => warningOf(slug, found, caniemail))
    .filter((warning): warning is Schemas['HtmlCheckWarning'] => warning !== null)
    .sort(worstFirst);
  const tests = index.detectable.length + Object.keys(NEVER_SUPPORTED).length;
  return { Warnings: warnings, Platforms: caniemail.platforms, Total: totalOf(warnings, tests, findings.nodes) };
}

/** The `<link rel=stylesheet>` hrefs of the HTML, each once, at most `limit`, made absolute against `<base href>` when there is one. */
export function stylesheetLinks(html: string, limit: number): StylesheetLink[] {
  const hrefs: string[] = [];
  let base: string | null = null;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'base' && base === null && attributes.href) base = attributes.href.trim();
      const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
      if (name === 'link' && rel.includes('stylesheet') && attributes.href?.trim()) hrefs.push(attributes.href.trim());
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  const absolute = (href: string): string | null => {
    try {
      return new URL(href, base ?? undefined).href;
    } catch {
      return null;
    }
  };
  return [...new Set(hrefs)].slice(0, limit).map((href) => ({ href, url: absolute(href) }));
}

/**
 * The check of a message's HTML body. With `stylesheets` null it first looks for linked stylesheets: when there are
 * some, it answers with them for the caller to fetch (fetching is I/O, not a worker's job) and to ask again with
 * their CSS.
 */
export async function messageHtmlCheck(raw: Buffer, stylesheets: LinkedStylesheet[] | null, stylesheetLimit: number): Promise<HtmlCheckOutcome> {
  const parsed = await parseMime(raw).catch(() => null);
  const html = parsed && typeof parsed.html === 'string' && parsed.html !== '' ? parsed.html : null;
  if (html === null) return { kind: 'no-html' };
  if (stylesheets === null) {
    const links = stylesheetLinks(html, stylesheetLimit);
    if (links.length > 0) return { kind: 'stylesheets-linked', links };
  }
  const inlineImageTypes = new Map<string, string>();
  for (const attachment of parsed?.attachments ?? []) {
    if (attachment.cid) inlineImageTypes.set(contentIdKey(attachment.cid), attachment.contentType);
  }
  return { kind: 'checked', findings: checkHtml(html, stylesheets ?? [], inlineImageTypes, await caniemailIndex()) };
}
