// The vendored caniemail data (vendor/caniemail.json, refreshed by scripts/refresh-caniemail.ts) read once per worker:
// each feature's support per email client as caniemail last tested it, and the platforms it tests.
import type { components } from '../contract/api-types.js';

type HtmlCheckResult = components['schemas']['HtmlCheckResult'];
type ClientSupport = HtmlCheckResult['Support'];

/** One feature of the caniemail API document, with each platform's tests as [version, support] in caniemail's order. */
export interface CaniemailFeature {
  slug: string;
  title: string;
  description: string | null;
  url: string;
  category: 'html' | 'css' | 'image' | 'others';
  tags: string[] | null;
  stats: Record<string, Record<string, [string, string][]>>;
  notes_by_num: Record<string, string> | null;
}

export interface CaniemailDocument {
  vendored_from: string;
  last_update_date: string;
  nicenames: { family: Record<string, string>; platform: Record<string, string> };
  data: CaniemailFeature[];
}

/** A feature with what the report says of every client, worked out once. */
export interface FeatureSupport {
  feature: CaniemailFeature;
  results: HtmlCheckResult[];
  /** The score without Found, which depends on the message. */
  shares: Omit<components['schemas']['HtmlCheckScore'], 'Found'>;
}

export interface Caniemail {
  document: CaniemailDocument;
  features: Map<string, FeatureSupport>;
  platforms: Record<string, string[]>;
}

const SUPPORT_LETTERS: Record<string, ClientSupport> = { y: 'yes', n: 'no', a: 'partial', u: 'unknown' };

/** `a #1 #3` → partial with notes 1 and 3. caniemail writes nothing else; anything else would be a support not known. */
export function parseSupport(value: string): { support: ClientSupport; notes: string[] } {
  const [letter = '', ...rest] = value.trim().split(/\s+/);
  return {
    support: SUPPORT_LETTERS[letter] ?? 'unknown',
    notes: rest.filter((token) => /^#\d+$/.test(token)).map((token) => token.slice(1)),
  };
}

/** Orders by code units, the same on every machine (localeCompare depends on the locale). */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Percent with two decimals. */
export const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/**
 * One result per client (a family on a platform): its most recent test, the last caniemail lists. Older tests of the
 * same client are superseded; caniemail.com's own "estimated support" counts the same way.
 */
function supportOf(feature: CaniemailFeature, nicenames: CaniemailDocument['nicenames']): FeatureSupport {
  const results: HtmlCheckResult[] = [];
  for (const [family, platforms] of Object.entries(feature.stats)) {
    for (const [platform, tests] of Object.entries(platforms)) {
      const latest = tests.at(-1);
      if (!latest) continue;
      const [version, value] = latest;
      const { support, notes } = parseSupport(value);
      const name = `${nicenames.family[family] ?? family} ${nicenames.platform[platform] ?? platform} (${version})`;
      results.push({ Name: name, Family: family, Platform: platform, Version: version, Support: support, NoteNumbers: notes });
    }
  }
  results.sort((a, b) => byText(a.Family, b.Family) || byText(a.Platform, b.Platform));
  const count = (support: ClientSupport) => results.filter((result) => result.Support === support).length;
  return {
    feature,
    results,
    shares: {
      Supported: percent(count('yes'), results.length),
      Partial: percent(count('partial'), results.length),
      Unsupported: percent(count('no'), results.length),
      Unknown: percent(count('unknown'), results.length),
    },
  };
}

/** Every platform with the families tested on it, by nice name, both sorted. */
function platformsOf(document: CaniemailDocument): Record<string, string[]> {
  const families = new Map<string, Set<string>>();
  for (const feature of document.data) {
    for (const [family, platforms] of Object.entries(feature.stats)) {
      for (const platform of Object.keys(platforms)) {
        let set = families.get(platform);
        if (!set) families.set(platform, (set = new Set()));
        set.add(document.nicenames.family[family] ?? family);
      }
    }
  }
  return Object.fromEntries([...families.keys()].sort().map((platform) => [platform, [...families.get(platform)!].sort()]));
}

export function caniemailFrom(document: CaniemailDocument): Caniemail {
  return {
    document,
    features: new Map(document.data.map((feature) => [feature.slug, supportOf(feature, document.nicenames)])),
    platforms: platformsOf(document),
  };
}

let loaded: Promise<Caniemail> | null = null;

/** Read on a worker's first check only: the data is 650 KB that workers which never check HTML need not hold. */
export function loadCaniemail(): Promise<Caniemail> {
  loaded ??= import('./vendor/caniemail.json', { with: { type: 'json' } })
    .then(({ default: document }) => caniemailFrom(document as unknown as CaniemailDocument));
  return loaded;
}
