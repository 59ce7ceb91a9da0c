// The HTML check's task in the content pool: what it takes (linked stylesheets) and answers (its findings). The report
// itself (which HTML and CSS features a message uses and how well email clients support each, per caniemail.com's data,
// in the shape Mailpit's HTML check answers with) is the contract's HtmlCheck and the schemas it names.
import type { components } from '../contract/api-types.js';

/** What the check of the HTML (and the CSS it carries or links) found: the report less its stylesheets, which the service adds. */
export type HtmlCheckFindings = Omit<components['schemas']['HtmlCheck'], 'Stylesheets'>;

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
