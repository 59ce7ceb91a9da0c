// Reads spamd's answer to a SPAMC REPORT request: the verdict from its Spam header, the rules from the report's table.
//
// The table is SpamAssassin's default report template (_SUMMARY_ under a line of dashes), one rule per row:
//   " 1.0 FREEMAIL_REPLYTO       Reply-To/From or Reply-To/body contain different"
//   "                            freemails"
//   "                            [claims.agent5678(at)yahoo.com]"
// The score is "%4.1f", or "%4.0f" from 10 up and -10 down; the name is padded to 22 columns and pushes the
// description right when longer; a description wraps onto lines indented under it; bracketed lines after it
// are what the rule matched. Scores are taken as spamd prints them: nothing is rounded or floored here.

export interface SpamRule {
  name: string;
  score: number;
  /** The rule's description as spamd reports it (with its area, e.g. "BODY: "), wrapped lines joined. */
  description: string;
}

export interface SpamVerdict {
  isSpam: boolean;
  /** The message's score, as spamd's Spam header gives it (one decimal). */
  score: number;
  /** spamd's own threshold (its required_score). */
  requiredScore: number;
  rules: SpamRule[];
}

/** A reply that is not a readable report: spamd answered an error, or something that is not a spamd reply. */
export class SpamdReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpamdReplyError';
  }
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const STATUS_LINE = /^SPAMD\/\d+\.\d+ (\d+) (.*)$/;
const SPAM_HEADER = new RegExp(`^(true|false|yes|no) ; (${NUMBER}) / (${NUMBER})$`, 'i');
/** The rule under the column headings: dashes, as many groups as columns. */
const TABLE_RULE = /^-+(?: +-+)+ *$/;
/** A rule's first line: its score right-aligned in four columns, so at most three spaces before it. */
const RULE_ROW = new RegExp(`^ {0,3}(${NUMBER}) (\\S+)(?: +(.*))?$`);
/** What the rule matched, one bracketed line each, indented or (when long) right-aligned. */
const MATCH_LINE = /^ *\[.*\]$/;

/** Parses the complete reply (status line, headers, body) to one REPORT request. */
export function parseSpamdReply(reply: Buffer): SpamVerdict {
  const headEnd = reply.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = reply.subarray(0, headEnd < 0 ? reply.length : headEnd).toString('latin1').split('\r\n');
  const status = STATUS_LINE.exec(statusLine);
  if (!status) throw new SpamdReplyError(`not a spamd reply: '${statusLine.slice(0, 80)}'`);
  if (status[1] !== '0') throw new SpamdReplyError(`error reply ${status[1]} ${status[2]}`);
  if (headEnd < 0) throw new SpamdReplyError('the reply ends inside its headers');

  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = reply.subarray(headEnd + 4);
  const declared = headers.get('content-length');
  if (declared !== undefined && Number(declared) !== body.length) {
    throw new SpamdReplyError(`the report is ${body.length} bytes where spamd announced ${declared}: the reply was cut short`);
  }
  const verdict = SPAM_HEADER.exec(headers.get('spam') ?? '');
  if (!verdict) throw new SpamdReplyError(`no verdict in the reply's Spam header: '${headers.get('spam') ?? '(none)'}'`);

  return {
    isSpam: /^(true|yes)$/i.test(verdict[1]!),
    score: Number(verdict[2]),
    requiredScore: Number(verdict[3]),
    rules: parseRuleTable(body.toString('utf8')),
  };
}

function parseRuleTable(report: string): SpamRule[] {
  const lines = report.split(/\r?\n/);
  // The last such line: the content preview above the table quotes the message, which may draw one too.
  const start = lines.findLastIndex((line) => TABLE_RULE.test(line));
  if (start < 0) throw new SpamdReplyError('the report has no table of rules (spamd\'s report template is not the default one)');

  const rules: SpamRule[] = [];
  /** Description lines of the rule being read; closed once what it matched begins. */
  let description: string[] | null = null;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const row = RULE_ROW.exec(line);
    if (row) {
      description = row[3] === undefined ? [] : [row[3].trim()];
      rules.push({ name: row[2]!, score: Number(row[1]), description: '' });
    } else if (rules.length === 0) {
      throw new SpamdReplyError(`the report's table starts with a line that is not a rule: '${line.slice(0, 80)}'`);
    } else if (MATCH_LINE.test(line)) {
      description = null;
    } else if (description !== null && /^ {4,}\S/.test(line)) {
      description.push(line.trim());
    } else {
      throw new SpamdReplyError(`a line of the report's table is neither a rule nor part of one: '${line.slice(0, 80)}'`);
    }
    if (description !== null) rules.at(-1)!.description = description.join(' ');
  }
  return rules;
}
