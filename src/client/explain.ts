// A timed-out wait's explanation (the API's error.explain) as a table a test log shows: what the wait looked for
// and, for each recent message, the terms it failed.
import type { components } from '../contract/api-types.js';

export type WaitExplanation = components['schemas']['WaitExplanation'];

/** Widest a column is shown; longer values end in an ellipsis. */
const COLUMN_WIDTH = { from: 32, recipients: 32, subject: 40 } as const;

const clipped = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`);

/**
 * Lines such as
 * ```
 * looked for: from:app subject:hello to:alice (0 of 1 matched; server clock 2026-12-03T07:13:20.587Z)
 * recent mail in the inbox, newest first:
 *   received                  from        recipients  subject              failed terms
 *   2026-12-03T07:13:20.070Z  app@x.test  bob@y.test  Reset your password  subject:hello, to:alice
 * ```
 */
export function explanationTable(explain: WaitExplanation): string {
  const lookedFor = explain.terms.length === 0 ? 'any message' : explain.terms.join(' ');
  const head = `looked for: ${lookedFor} (${explain.matched} of ${explain.wanted} matched; server clock ${explain.server_time})`;
  if (explain.recent.length === 0) return `${head}\nthe inbox has no mail`;
  const rows = [
    ['received', 'from', 'recipients', 'subject', 'failed terms'],
    ...explain.recent.map((message) => [
      message.received_at,
      clipped(message.from, COLUMN_WIDTH.from),
      clipped(message.recipients.join(', '), COLUMN_WIDTH.recipients),
      clipped(message.subject, COLUMN_WIDTH.subject),
      message.failed_terms.length === 0 ? '(matched)' : message.failed_terms.join(', '),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => `  ${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}`);
  return [head, 'recent mail in the inbox, newest first:', ...lines].join('\n');
}
