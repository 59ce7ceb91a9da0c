// The words a dashboard message row marks for the applied search: plain words, phrases and subject: terms of q, and
// the subject filter; never negated terms or other fields.
import { strict as assert } from 'node:assert';
import { matchedWords, wordsPattern } from '../../src/dashboard/components/inbox/matched-words.js';

describe('matchedWords (dashboard message rows)', function () {
  it('takes the plain words, phrases and subject: terms of q, and the subject filter', function () {
    assert.deepEqual(matchedWords({ q: 'invoice "weekly report" subject:"order 58213" subject:paid' }), ['invoice', 'weekly report', 'order 58213', 'paid']);
    assert.deepEqual(matchedWords({ q: 'reset', subject: 'Password' }), ['reset', 'Password']);
  });

  it('leaves out negated terms, operators, other fields and single letters', function () {
    assert.deepEqual(matchedWords({ q: '-spam -"do not" from:alice tag:urgent is:unread a OR (b AND receipt)' }), ['receipt']);
    assert.deepEqual(matchedWords({}), []);
  });

  it('marks case aside, with the words escaped', function () {
    const pattern = wordsPattern(matchedWords({ q: 'a.b+c invoice' }))!;
    assert.deepEqual('Your INVOICE for a.b+c, not axb+c'.split(pattern).filter((_, index) => index % 2 === 1), ['INVOICE', 'a.b+c']);
    assert.equal(wordsPattern([]), null);
  });
});
