// Which caniemail feature each HTML and CSS construct belongs to, derived from the data's slugs and titles: generic rules
// (`css-<property>` titled with the property, `css-pseudo-class-<name>`, `css-unit-<unit>`, `<tag> element`, `<name>
// attribute`, `name()` functions, `image-<format>` ...) and a table for the slugs whose name does not say what they cover.
import type { CaniemailFeature } from './caniemail.js';

/** Selector parts, named as caniemail's `css-selector-*` slugs name them. */
const SELECTOR_PARTS = ['type', 'class', 'id', 'universal', 'attribute', 'descendant', 'child', 'adjacent-sibling', 'general-sibling', 'grouping', 'chaining'] as const;
export type SelectorPart = (typeof SELECTOR_PARTS)[number];

/** Constructs no single name covers; html-check.ts recognises each. */
export type SpecialConstruct =
  | 'important' | 'custom-properties' | 'nesting' | 'css-comments'
  | 'html-comments' | 'html5-doctype' | 'anchor-links' | 'mailto-links' | 'meta-color-scheme' | 'base64-images';

/** What one feature is made of; any one of them found in the message counts once toward it. */
export interface Detection {
  /** Tag names, or `tag[type=value]` for one type of input or button (a missing type counts as its default). */
  elements?: string[];
  attributes?: string[];
  properties?: string[];
  /** `property:keyword`, e.g. `display:flex`. */
  propertyValues?: string[];
  /** Keywords in any declaration's value, or only in those of keywordProperties when given. */
  keywords?: string[];
  keywordProperties?: string[];
  functions?: string[];
  /** Dimension units, and `%` for percentages. */
  units?: string[];
  atRules?: string[];
  /** Media features without vendor prefix and min-/max-, e.g. `device-pixel-ratio`. */
  mediaFeatures?: string[];
  pseudoClasses?: string[];
  pseudoElements?: string[];
  selectorParts?: SelectorPart[];
  /** Image formats by caniemail's names (`jpg`, `webp`), found in image URLs, data URIs and types. */
  imageFormats?: string[];
  special?: SpecialConstruct[];
}

const BOX_SIDES = ['top', 'right', 'bottom', 'left'];

/**
 * The slugs whose name and title do not say (or say too little of) what they cover, from each feature's description
 * and keywords on caniemail.com. Longhands go with a shorthand where caniemail tests them together and has no slug of
 * their own; `background`, `font`, `list-style` and `text-decoration` have slugs for their longhands, so those stay apart.
 */
const IRREGULAR: Record<string, Detection> = {
  'css-animation': { properties: ['animation', ...['name', 'duration', 'timing-function', 'delay', 'iteration-count', 'direction', 'fill-mode', 'play-state'].map((part) => `animation-${part}`)] },
  'css-transition': { properties: ['transition', ...['property', 'duration', 'timing-function', 'delay', 'behavior'].map((part) => `transition-${part}`)] },
  'css-border': {
    properties: ['border', 'border-width', 'border-style', 'border-color', ...BOX_SIDES.flatMap((side) => [`border-${side}`, `border-${side}-width`, `border-${side}-style`, `border-${side}-color`])],
  },
  'css-border-inline-block': { properties: ['border-inline', 'border-block'] },
  'css-border-inline-block-individual': {
    properties: ['inline', 'block'].flatMap((axis) => ['color', 'style', 'width', 'start', 'end'].map((part) => `border-${axis}-${part}`)),
  },
  'css-border-inline-block-longhand': {
    properties: ['inline', 'block'].flatMap((axis) => ['start', 'end'].flatMap((edge) => ['color', 'style', 'width'].map((part) => `border-${axis}-${edge}-${part}`))),
  },
  'css-border-radius-logical': { properties: ['start-start', 'start-end', 'end-start', 'end-end'].map((corner) => `border-${corner}-radius`) },
  'css-margin': { properties: ['margin', ...BOX_SIDES.map((side) => `margin-${side}`)] },
  'css-padding': { properties: ['padding', ...BOX_SIDES.map((side) => `padding-${side}`)] },
  'css-margin-block-start-end': { properties: ['margin-block-start', 'margin-block-end'] },
  'css-margin-inline-start-end': { properties: ['margin-inline-start', 'margin-inline-end'] },
  'css-margin-inline-block': { properties: ['margin-inline', 'margin-block'] },
  'css-padding-block-start-end': { properties: ['padding-block-start', 'padding-block-end'] },
  'css-padding-inline-start-end': { properties: ['padding-inline-start', 'padding-inline-end'] },
  'css-padding-inline-block': { properties: ['padding-inline', 'padding-block'] },
  'css-block-inline-size': { properties: ['block-size', 'inline-size'] },
  'css-outline': { properties: ['outline', 'outline-color', 'outline-style', 'outline-width'] },
  'css-overflow': { properties: ['overflow', 'overflow-x', 'overflow-y', 'overflow-block', 'overflow-inline'] },
  'css-text-emphasis': { properties: ['text-emphasis', 'text-emphasis-color', 'text-emphasis-style'] },
  'css-column-layout-properties': {
    properties: ['columns', 'column-fill', 'column-gap', 'column-rule', 'column-rule-color', 'column-rule-style', 'column-rule-width', 'column-span', 'column-width'],
  },
  'css-gap': { properties: ['gap', 'column-gap', 'row-gap'] },
  'css-grid-template': { properties: ['grid-template', 'grid-template-areas', 'grid-template-columns', 'grid-template-rows'] },
  'css-inset': { properties: ['inset', 'inset-block', 'inset-inline', 'inset-inline-start', 'inset-inline-end', 'inset-block-start', 'inset-block-end'] },
  'css-left-right-top-bottom': { properties: ['left', 'right', 'top', 'bottom'] },
  // There is no `scroll-snap` property: the feature is the scroll-snap-* family.
  'css-scroll-snap': { properties: ['scroll-snap-type', 'scroll-snap-align', 'scroll-snap-stop'] },
  'css-font': { properties: ['font'] },
  // caniemail's notes on display:flex speak of inline-flex; inline-grid is the same layout inline.
  'css-display-flex': { propertyValues: ['display:flex', 'display:inline-flex'] },
  'css-display-grid': { propertyValues: ['display:grid', 'display:inline-grid'] },
  'css-intrinsic-size': { keywords: ['fit-content', 'min-content', 'max-content'], functions: ['fit-content'] },
  'css-sytem-ui': { keywords: ['system-ui', 'ui-serif', 'ui-sans-serif', 'ui-rounded', 'ui-monospace'], keywordProperties: ['font-family', 'font'] },
  'css-unit-initial': { keywords: ['initial'] },
  'css-important': { special: ['important'] },
  'css-variables': { special: ['custom-properties'], functions: ['var'] },
  'css-nesting': { special: ['nesting'] },
  'css-comments': { special: ['css-comments'] },
  'css-inert-attribute': { attributes: ['inert'] },
  'html-address': { elements: ['address'] },
  'html-h1-h6': { elements: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] },
  'html-lists': { elements: ['ul', 'ol', 'li', 'dl', 'dt', 'dd'] },
  'html-semantics': { elements: ['article', 'aside', 'details', 'figcaption', 'figure', 'footer', 'header', 'main', 'mark', 'nav', 'section', 'summary', 'time'] },
  'html-srcset': { attributes: ['srcset', 'sizes'] },
  'html-image-maps': { elements: ['map'] },
  'html-comments': { special: ['html-comments'] },
  'html-doctype': { special: ['html5-doctype'] },
  'html-anchor-links': { special: ['anchor-links'] },
  'html-mailto-links': { special: ['mailto-links'] },
  'html-meta-color-scheme': { special: ['meta-color-scheme'] },
  'image-base64': { special: ['base64-images'] },
};

/** caniemail features that no look at a message's HTML can find, and why. */
export const UNDETECTABLE: Record<string, string> = {
  amp: 'AMP is a MIME part of its own (text/x-amp-html), not something the HTML uses',
  bimi: 'BIMI is a DNS record and an authentication result, not message content',
  'image-hdr': 'HDR is a property of the image data; its URL and type say nothing of it',
};

/** `-webkit-min-device-pixel-ratio` → `device-pixel-ratio`: caniemail's media feature slugs name the feature, not its spellings. */
export function mediaFeatureName(name: string): string {
  const unprefixed = (text: string) => text.replace(/^-[a-z]+-/, '');
  return unprefixed(unprefixed(name.toLowerCase()).replace(/^(min|max)-/, ''));
}

/** The slug's last part after a prefix, when the slug has that prefix. */
const after = (slug: string, prefix: string): string | null => (slug.startsWith(prefix) ? slug.slice(prefix.length) : null);

/** What the slug and title of a feature say it covers, or null when they do not say (see IRREGULAR). */
function genericDetection(feature: CaniemailFeature): Detection | null {
  const { slug } = feature;
  const title = feature.title.trim().toLowerCase();
  const mediaFeature = after(slug, 'css-at-media-');
  if (mediaFeature !== null) {
    const names = [...title.matchAll(/\(([-a-z]+)\)/g)].map((match) => mediaFeatureName(match[1]!));
    return names.length > 0 ? { mediaFeatures: [...new Set(names)] } : null;
  }
  const atRule = after(slug, 'css-at-');
  if (atRule !== null) return title === `@${atRule}` ? { atRules: [atRule] } : null;
  const pseudoClass = after(slug, 'css-pseudo-class-');
  if (pseudoClass !== null) return { pseudoClasses: [pseudoClass] };
  const pseudoElement = after(slug, 'css-pseudo-element-');
  if (pseudoElement !== null) return { pseudoElements: [pseudoElement] };
  const selectorPart = after(slug, 'css-selector-');
  if (selectorPart !== null) return (SELECTOR_PARTS as readonly string[]).includes(selectorPart) ? { selectorParts: [selectorPart as SelectorPart] } : null;
  const format = after(slug, 'image-');
  if (format !== null) return { imageFormats: [format] };
  const name = after(slug, 'css-');
  if (name !== null) {
    const functions = [...title.matchAll(/([a-z][-a-z]*)\(\)/g)].map((match) => match[1]!);
    if (functions.length > 0) return { functions };
    const unit = /^(\S+) unit$/.exec(title);
    if (unit && name.startsWith('unit-')) return { units: [unit[1]!] };
    const propertyValue = /^([a-z-]+)\s*:\s*([a-z-]+)$/.exec(title);
    if (propertyValue) return { propertyValues: [`${propertyValue[1]}:${propertyValue[2]}`] };
    const property = title.replace(/\s+(css\s+)?property$/, '');
    return property === name ? { properties: [name] } : null;
  }
  if (slug.startsWith('html-')) {
    const element = /<([a-z][a-z0-9]*)(?:\s+type="([a-z]+)")?>/.exec(title);
    if (element) return { elements: [element[2] ? `${element[1]}[type=${element[2]}]` : element[1]!] };
    const attribute = /^([a-z][-a-z]*) attribute$/.exec(title);
    if (attribute) return { attributes: [attribute[1]!] };
  }
  return null;
}

export function detectionOf(feature: CaniemailFeature): Detection | null {
  if (UNDETECTABLE[feature.slug] !== undefined) return null;
  return IRREGULAR[feature.slug] ?? genericDetection(feature);
}

type DetectionList = Exclude<keyof Detection, 'keywords' | 'keywordProperties'>;

/** Slugs by construct, for each kind of construct a message can contain. */
export type FeatureIndex = { [Kind in DetectionList]: Map<string, string[]> } & {
  /** Keyword → the slugs it counts toward, each with the properties it counts in (null: in any). */
  keywords: Map<string, { slug: string; properties: ReadonlySet<string> | null }[]>;
  /** Every slug the check can find. */
  detectable: string[];
};

const LIST_KINDS: DetectionList[] = [
  'elements', 'attributes', 'properties', 'propertyValues', 'functions', 'units', 'atRules', 'mediaFeatures',
  'pseudoClasses', 'pseudoElements', 'selectorParts', 'imageFormats', 'special',
];

export function featureIndex(features: Iterable<CaniemailFeature>): FeatureIndex {
  const index = {
    ...Object.fromEntries(LIST_KINDS.map((kind) => [kind, new Map<string, string[]>()])),
    keywords: new Map(),
    detectable: [],
  } as unknown as FeatureIndex;
  for (const feature of features) {
    const detection = detectionOf(feature);
    if (!detection) continue;
    index.detectable.push(feature.slug);
    for (const kind of LIST_KINDS) {
      for (const name of detection[kind] ?? []) {
        const slugs = index[kind].get(name);
        if (slugs) slugs.push(feature.slug);
        else index[kind].set(name, [feature.slug]);
      }
    }
    const properties = detection.keywordProperties ? new Set(detection.keywordProperties) : null;
    for (const keyword of detection.keywords ?? []) {
      const entries = index.keywords.get(keyword) ?? [];
      entries.push({ slug: feature.slug, properties });
      index.keywords.set(keyword, entries);
    }
  }
  return index;
}
