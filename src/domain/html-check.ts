// The HTML check's report as the API shows it: which HTML and CSS features a message uses and how well email clients
// support each, per caniemail.com's data. Field names are capitalised, in the shape Mailpit's HTML check answers with.

/** caniemail's `y`, `n`, `a` (partial) and `u` (not known); a note number on any of them is kept apart. */
export type ClientSupport = 'yes' | 'no' | 'partial' | 'unknown';

/** One email client (a family on a platform), as caniemail last tested it. */
export interface HtmlCheckClientResult {
  /** Family, platform and version for people, e.g. `Outlook Windows (2019)`. */
  Name: string;
  /** caniemail's family key, e.g. `outlook`. */
  Family: string;
  /** caniemail's platform key, e.g. `windows`. */
  Platform: string;
  Version: string;
  Support: ClientSupport;
  /** Keys of NotesByNumber that qualify this result, in caniemail's order. */
  NoteNumbers: string[];
}

/** Shares of the clients in Results, in percent (two decimals), and how often the message uses the feature. */
export interface HtmlCheckScore {
  Found: number;
  Supported: number;
  Partial: number;
  Unsupported: number;
  Unknown: number;
}

export interface HtmlCheckWarning {
  /** caniemail's feature slug, e.g. `css-display-flex`; the never-supported rules of this service have slugs of their own. */
  Slug: string;
  Title: string;
  /** Markdown, as caniemail writes it. */
  Description: string;
  /** The feature's caniemail.com page; null for this service's own rules. */
  URL: string | null;
  Category: 'html' | 'css' | 'image' | 'others';
  Tags: string[];
  /** Whose rule: caniemail's data, or this service's own for constructs no email client runs (scripts). */
  Source: 'caniemail' | 'mail-sandbox';
  Results: HtmlCheckClientResult[];
  /** caniemail's notes on the feature, by number (Markdown). */
  NotesByNumber: Record<string, string>;
  Score: HtmlCheckScore;
}

export interface HtmlCheckTotal {
  /** Features the check looks for. */
  Tests: number;
  /** HTML elements in the message. */
  Nodes: number;
  /** 100 minus Partial and Unsupported. */
  Supported: number;
  /** The largest share of clients with partial support of one feature, weighted by how much of the message uses it. */
  Partial: number;
  /** The largest share of clients without support of one feature, weighted likewise. */
  Unsupported: number;
}

/** A `<link rel=stylesheet>` and whether its CSS was fetched and checked. */
export interface HtmlCheckStylesheet {
  /** The URL requested, or the href as written when it could not be made absolute. */
  URL: string;
  Checked: boolean;
  /** Why it was not checked; null when it was. */
  Error: string | null;
}

/** What the check of the HTML (and the CSS it carries or links) found. */
export interface HtmlCheckFindings {
  /** Every feature found, worst supported first, then by slug. */
  Warnings: HtmlCheckWarning[];
  /** Every platform caniemail tests, with the client families tested on it. */
  Platforms: Record<string, string[]>;
  Total: HtmlCheckTotal;
}

export interface HtmlCheckReport extends HtmlCheckFindings {
  Stylesheets: HtmlCheckStylesheet[];
}

/** A linked stylesheet as the check task receives it: its CSS, or why there is none. */
export interface LinkedStylesheet {
  url: string;
  css: string | null;
  error: string | null;
}

/** A `<link rel=stylesheet>` as written, and as an absolute URL when it can be made one. */
export interface StylesheetLink {
  href: string;
  url: string | null;
}

/** What the check task answers: no HTML to check, stylesheets to fetch before checking, or the findings. */
export type HtmlCheckOutcome =
  | { kind: 'no-html' }
  | { kind: 'stylesheets-linked'; links: StylesheetLink[] }
  | { kind: 'checked'; findings: HtmlCheckFindings };
