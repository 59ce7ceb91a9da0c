// The spamd reply parser on replies captured from a real spamd (test/fixtures/spamd/README.md), and on broken ones.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/project-root.js';
import { parseSpamdReply, SpamdReplyError, type SpamRule } from '../../../src/spamd/spamd-reply.js';

const reply = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/spamd', `${name}.reply`));

function ruleNamed(rules: SpamRule[], name: string): SpamRule {
  const rule = rules.find((candidate) => candidate.name === name);
  assert.ok(rule, `no rule ${name} among ${rules.map((r) => r.name).join(', ')}`);
  return rule;
}

/** A real reply with its report changed, and its Content-length made to match. */
function withReport(name: string, edit: (report: string) => string): Buffer {
  const original = reply(name).toString('utf8');
  const split = original.indexOf('\r\n\r\n');
  const report = edit(original.slice(split + 4));
  const head = original.slice(0, split).replace(/^Content-length: \d+$/m, `Content-length: ${Buffer.byteLength(report)}`);
  return Buffer.from(`${head}\r\n\r\n${report}`, 'utf8');
}

describe('parseSpamdReply', () => {
  it('reads GTUBE: spam, the score and threshold of the Spam header, a score printed without decimals, -0.0 scores', () => {
    const verdict = parseSpamdReply(reply('gtube'));
    assert.equal(verdict.isSpam, true);
    assert.equal(verdict.score, 1000);
    assert.equal(verdict.requiredScore, 5);
    assert.deepEqual(verdict.rules.map((rule) => rule.name).sort(), ['GTUBE', 'NO_RECEIVED', 'NO_RELAYS']);
    assert.deepEqual(ruleNamed(verdict.rules, 'GTUBE'), { name: 'GTUBE', score: 1000, description: 'BODY: Generic Test for Unsolicited Bulk Email' });
    const noRelays = ruleNamed(verdict.rules, 'NO_RELAYS');
    assert.ok(Object.is(noRelays.score, -0), `-0.0 reads as -0, got ${noRelays.score}`);
    assert.equal(noRelays.description, 'Informational: message was not relayed via SMTP');
  });

  it('reads a long report: negative scores, names longer than their column, wrapped descriptions, matched text left out', () => {
    const verdict = parseSpamdReply(reply('advance-fee'));
    assert.equal(verdict.isSpam, true);
    assert.equal(verdict.score, 22.2);
    assert.equal(verdict.requiredScore, 5);
    assert.equal(verdict.rules.length, 25);
    assert.deepEqual(ruleNamed(verdict.rules, 'ALL_TRUSTED'), { name: 'ALL_TRUSTED', score: -1, description: 'Passed through trusted hosts only via SMTP' });
    assert.deepEqual(ruleNamed(verdict.rules, 'FREEMAIL_REPLYTO_END_DIGIT'), {
      name: 'FREEMAIL_REPLYTO_END_DIGIT', score: 0.2, description: 'Reply-To freemail username ends in digit',
    });
    assert.deepEqual(ruleNamed(verdict.rules, 'ADVANCE_FEE_5_NEW_MONEY'), {
      name: 'ADVANCE_FEE_5_NEW_MONEY', score: 3, description: 'Advance Fee fraud and lots of money',
    });
    assert.equal(ruleNamed(verdict.rules, 'FREEMAIL_REPLYTO').description, 'Reply-To/From or Reply-To/body contain different freemails');
    assert.equal(ruleNamed(verdict.rules, 'FREEMAIL_FROM').description, 'Sender email is commonly abused enduser mail provider');
    assert.equal(ruleNamed(verdict.rules, 'UNCLAIMED_MONEY').score, 2.7);
    assert.equal(ruleNamed(verdict.rules, 'US_DOLLARS_3').description, 'BODY: Mentions millions of $ ($NN,NNN,NNN.NN)');
    assert.equal(ruleNamed(verdict.rules, 'HK_SCAM').description, 'No description available.');
    // The table's scores are rounded for print; the Spam header's total is the one spamd computed.
    assert.ok(verdict.rules.every((rule) => /^[A-Z0-9_]+$/.test(rule.name) && rule.description !== ''));
  });

  it('reads a clean message: not spam, an empty table, a UTF-8 preview quoting a table of dashes', () => {
    const verdict = parseSpamdReply(reply('ham-utf8'));
    assert.deepEqual(verdict, { isSpam: false, score: 0, requiredScore: 5, rules: [] });
  });

  it('reads a score of -10 or less, printed without decimals, and a negative total', () => {
    const verdict = parseSpamdReply(reply('welcomelisted'));
    assert.equal(verdict.isSpam, false);
    assert.equal(verdict.score, -98.5);
    assert.deepEqual(ruleNamed(verdict.rules, 'USER_IN_WELCOMELIST'), { name: 'USER_IN_WELCOMELIST', score: -100, description: 'User is listed in \'welcomelist_from\'' });
    assert.equal(verdict.rules.length, 6);
  });

  it('takes the verdict as spamd words it, scores included: nothing floored, any threshold', () => {
    const tweaked = Buffer.from(reply('ham-utf8').toString('utf8').replace('Spam: False ; 0.0 / 5.0', 'Spam: True ; 4.9 / 4.5'));
    assert.deepEqual(parseSpamdReply(tweaked), { isSpam: true, score: 4.9, requiredScore: 4.5, rules: [] });
  });

  it('reads names far longer than their column, descriptions wrapped over three lines, scores rounded for print', () => {
    const verdict = parseSpamdReply(reply('local-rules'));
    assert.equal(verdict.score, -2.5);
    assert.deepEqual(verdict.rules.map((rule) => rule.name).sort(), [
      'LOCAL_BODY_NOTES', 'LOCAL_NO_DESCRIBE', 'LOCAL_SUBJECT_MENTIONS_THE_QUARTERLY_MEETING_OF_THE_WHOLE_DEPARTMENT_AND_ITS_GUESTS', 'NO_RECEIVED', 'NO_RELAYS',
    ]);
    assert.deepEqual(ruleNamed(verdict.rules, 'LOCAL_SUBJECT_MENTIONS_THE_QUARTERLY_MEETING_OF_THE_WHOLE_DEPARTMENT_AND_ITS_GUESTS'), {
      name: 'LOCAL_SUBJECT_MENTIONS_THE_QUARTERLY_MEETING_OF_THE_WHOLE_DEPARTMENT_AND_ITS_GUESTS',
      score: -12,
      description: 'Subject names the quarterly meeting, which every department schedules once in three months',
    });
    assert.deepEqual(ruleNamed(verdict.rules, 'LOCAL_BODY_NOTES'), {
      name: 'LOCAL_BODY_NOTES',
      score: 0,
      description: 'BODY: Body mentions meeting notes, which are usually sent after a meeting by the person who took them, and are rarely spam at all',
    });
    assert.deepEqual(ruleNamed(verdict.rules, 'LOCAL_NO_DESCRIBE'), { name: 'LOCAL_NO_DESCRIBE', score: 10, description: 'No description available.' });
  });

  describe('refuses what is not a report', () => {
    const refusals: [string, () => Buffer, RegExp][] = [
      ['an error reply', () => reply('bad-command'), /error reply 76 Bad header line: FOO SPAMC\/1\.5/],
      ['another protocol', () => Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), /not a spamd reply/],
      ['a reply cut short', () => reply('gtube').subarray(0, 500), /cut short/],
      ['a reply cut inside its headers', () => reply('gtube').subarray(0, 30), /ends inside its headers/],
      ['a reply without a verdict', () => Buffer.from(reply('gtube').toString('latin1').replace(/^Spam: .*\r\n/m, ''), 'latin1'), /no verdict/],
      ['a garbled verdict', () => Buffer.from(reply('gtube').toString('latin1').replace('1000.0 / 5.0', 'lots / 5.0'), 'latin1'), /no verdict/],
      ['a report of another template', () => withReport('gtube', (report) => report.replace(/^-{4} .*$/m, '')), /no table of rules/],
      ['a table that starts with something else', () => withReport('gtube', (report) => report.replace(/^-0\.0 NO_RECEIVED/m, 'oops NO_RECEIVED')), /not a rule/],
      ['a table with a stray line', () => withReport('gtube', (report) => report.replace(/^1000 GTUBE/m, 'stray\n1000 GTUBE')), /neither a rule nor part of one/],
    ];
    for (const [what, make, message] of refusals) {
      it(what, () => assert.throws(() => parseSpamdReply(make()), (error: unknown) => error instanceof SpamdReplyError && message.test(error.message)));
    }
  });
});
