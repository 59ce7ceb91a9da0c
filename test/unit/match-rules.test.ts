// Unit tests of matching tag rules against an arriving message within a per-message budget.
import { strict as assert } from 'node:assert';
import { matchRules, type ParsedTagRule } from '../../src/query/match-rules.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { noAddresses } from '../../src/domain/mailbox-key.js';

const message = {
  read: false, tags: ['from-sender'], attachmentCount: 0, inlineCount: 0, codes: [], size: 100, receivedAt: new Date('2026-11-26T12:00:00Z'),
  search: {
    subject: 'invoice 42', sender: 'shop@example.com', recipients: 'me@example.com', body: 'pay now', to: 'me@example.com', cc: '', bcc: '', replyTo: '', messageId: '',
    addresses: { ...noAddresses(), from: ['shop@example.com'], to: ['me@example.com'] },
  },
};

const rule = (query: string, tags: string[]): ParsedTagRule => ({ filter: parseQuery(query), tags });

describe('matchRules', () => {
  it('gives the tags of every matching rule, in rule order, seeing only the sender\'s tags', () => {
    const rules = [rule('subject:invoice', ['billing']), rule('from:nobody', ['never']), rule('tag:from-sender', ['chained']), rule('tag:billing', ['not-chained'])];
    assert.deepEqual(matchRules(rules, message, 1000), { tags: ['billing', 'chained'], skipped: 0 });
    const exact = [rule('to:=Me@Example.com', ['mine']), rule('to:=e@example.com', ['substring']), rule('from:=shop@example.com', ['shop'])];
    assert.deepEqual(matchRules(exact, message, 1000).tags, ['mine', 'shop']);
  });

  it('stops between rules once the budget is spent and says how many it skipped', () => {
    let clock = 0;
    // Each look at this clock is 10 "ms" after the last: with a 25 ms budget the fourth rule would start past it.
    const now = () => (clock += 10);
    const rules = Array.from({ length: 6 }, (_, n) => rule('subject:invoice', [`t${n}`]));
    const outcome = matchRules(rules, message, 25, now);
    assert.deepEqual(outcome.tags, ['t0', 't1', 't2']);
    assert.equal(outcome.skipped, 3);
  });

  it('always matches the first rule, however small the budget', () => {
    assert.deepEqual(matchRules([rule('pay', ['paid'])], message, 0), { tags: ['paid'], skipped: 0 });
  });
});
