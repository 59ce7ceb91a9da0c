// Mailpit's search language: every operator, negation, quoting, the terms it drops, its date forms and time zones.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { parseMailpitSearch } from '../../src/query/mailpit-search.js';
import { ADDRESS_FIELDS, ALL_TEXT_FIELDS, type QueryNode, type TextField } from '../../src/query/ast.js';

const text = (needle: string, fields: TextField[] = ALL_TEXT_FIELDS): QueryNode => ({ kind: 'text', fields, needle });
const not = (child: QueryNode): QueryNode => ({ kind: 'not', child });
const all = (...children: QueryNode[]): QueryNode => ({ kind: 'and', children });
const after = (iso: string): QueryNode => ({ kind: 'received', op: 'gte', at: new Date(iso) });
/** Mailpit's before: includes the instant it names. */
const before = (iso: string): QueryNode => ({ kind: 'received', op: 'lt', at: new Date(Date.parse(iso) + 1) });

const parsed = (query: string, tz?: string) => parseMailpitSearch(query, tz === undefined ? {} : { tz });

describe('parseMailpitSearch', () => {
  it('an empty query, or one of spaces, selects everything', () => {
    assert.deepEqual(parsed(''), all());
    assert.deepEqual(parsed('    '), all());
  });

  it('ANDs its terms, which spaces separate', () => {
    assert.deepEqual(parsed('from:shop   invoice'), all(text('shop', ['sender']), text('invoice')));
  });

  it('to: is the To header alone; from:, cc:, bcc:, reply-to: and message-id: one field each; addressed: every address header', () => {
    assert.deepEqual(parsed('to:bob@x.test'), text('bob@x.test', ['to']));
    assert.deepEqual(parsed('from:ana'), text('ana', ['sender']));
    assert.deepEqual(parsed('cc:carol'), text('carol', ['cc']));
    assert.deepEqual(parsed('bcc:dan'), text('dan', ['bcc']));
    assert.deepEqual(parsed('reply-to:help'), text('help', ['replyTo']));
    assert.deepEqual(parsed('message-id:abc@x.test'), text('abc@x.test', ['messageId']));
    assert.deepEqual(parsed('addressed:eve'), text('eve', ADDRESS_FIELDS));
  });

  it('reads operator names in any case and cleans address values of brackets, commas and quotes, in lower case', () => {
    assert.deepEqual(parsed('TO:<Bob@X.test>'), text('bob@x.test', ['to']));
    assert.deepEqual(parsed('From:"Ana, Shop"'), text('ana shop', ['sender']));
    assert.deepEqual(parsed('Message-ID:<ABC@x.test>'), text('abc@x.test', ['messageId']));
  });

  it('subject: takes its value as written (case folded), punctuation included', () => {
    assert.deepEqual(parsed('subject:<Re:>'), text('<re:>', ['subject']));
    assert.deepEqual(parsed('Subject:"Weekly   Report"'), text('weekly report', ['subject']));
  });

  it('tag: names a tag in any case, quoted when it holds a space', () => {
    assert.deepEqual(parsed('tag:Urgent'), { kind: 'tag', name: 'urgent' });
    assert.deepEqual(parsed('tag:"Needs Review"'), { kind: 'tag', name: 'needs review' });
  });

  it('is: and has: take read, unread, tagged, attachment(s) and inline(s)', () => {
    assert.deepEqual(parsed('is:read'), { kind: 'read', value: true });
    assert.deepEqual(parsed('IS:UNREAD'), { kind: 'read', value: false });
    assert.deepEqual(parsed('is:tagged'), { kind: 'tagged' });
    for (const value of ['attachment', 'attachments', 'Attachment']) assert.deepEqual(parsed(`has:${value}`), { kind: 'has_attachment' });
    for (const value of ['inline', 'inlines', 'INLINE']) assert.deepEqual(parsed(`has:${value}`), { kind: 'has_inline' });
  });

  it('searches an is:, has:, larger: or smaller: term it cannot read for its words, as Mailpit does', () => {
    assert.deepEqual(parsed('is:starred'), text('is:starred'));
    assert.deepEqual(parsed('has:pdf'), text('has:pdf'));
    assert.deepEqual(parsed('larger:huge'), text('larger:huge'));
    assert.deepEqual(parsed('smaller:1g'), text('smaller:1g'));
    assert.deepEqual(parsed('larger:0'), text('larger:0'));
    assert.deepEqual(parsed('larger:3000b'), text('larger:3000b'));
  });

  it('reads sizes in bytes, k or kb and m or mb (1024-based, any case), decimals and one space allowed', () => {
    assert.deepEqual(parsed('larger:500'), { kind: 'size', op: 'gt', bytes: 500 });
    assert.deepEqual(parsed('larger:500K'), { kind: 'size', op: 'gt', bytes: 512_000 });
    assert.deepEqual(parsed('smaller:1M'), { kind: 'size', op: 'lt', bytes: 1_048_576 });
    assert.deepEqual(parsed('smaller:1.5kb'), { kind: 'size', op: 'lt', bytes: 1536 });
    assert.deepEqual(parsed('larger:"2 MB"'), { kind: 'size', op: 'gt', bytes: 2_097_152 });
    assert.deepEqual(parsed('larger:0.3'), text('larger:0.3'));
  });

  it('negates a term with a leading - or !, once', () => {
    assert.deepEqual(parsed('-from:ana !is:read -has:inline !tag:qa'), all(
      not(text('ana', ['sender'])), not({ kind: 'read', value: true }), not({ kind: 'has_inline' }), not({ kind: 'tag', name: 'qa' }),
    ));
    assert.deepEqual(parsed('-larger:1k'), not({ kind: 'size', op: 'gt', bytes: 1024 }));
    assert.deepEqual(parsed('--x'), not(text('-x')));
    assert.deepEqual(parsed('-'), text('-'));
    assert.deepEqual(parsed('re-send'), text('re-send'));
  });

  it('quotes keep spaces inside one term and are removed, so a quoted operator is still one', () => {
    assert.deepEqual(parsed('"weekly report" -"old news"'), all(text('weekly report'), not(text('old news'))));
    assert.deepEqual(parsed('"from:Ana Shop"'), text('ana shop', ['sender']));
    assert.deepEqual(parsed('subject:"never closed'), text('never closed', ['subject']));
  });

  it('cleans bare words as Mailpit does: brackets, commas, semicolons, tabs and quotes become space', () => {
    assert.deepEqual(parsed('<hello>'), text('hello'));
    assert.deepEqual(parsed('"a;b,\tc"'), text('a b c'));
  });

  it('drops a term with nothing to search for, and a date it cannot read, instead of refusing the query', () => {
    for (const query of ['to:', 'from:<>', 'cc:""', 'bcc:,', 'reply-to:()', 'addressed:', 'message-id:<>', 'subject:', 'tag:', '"<>"', '-<>', '""']) {
      assert.deepEqual(parsed(`${query} keep`), text('keep'), query);
    }
    for (const query of ['after:', 'after:yesterday', 'before:2026-13-01', 'before:2026-02-30', 'after:"2026-11-20 25:00"', 'after:"31 Smarch 2026"']) {
      assert.deepEqual(parsed(`${query} keep`), text('keep'), query);
    }
  });

  it('reads dates in UTC by default, and in the tz zone when one is given, daylight saving time included', () => {
    assert.deepEqual(parsed('after:2026-11-20'), after('2026-11-20T00:00:00Z'));
    assert.deepEqual(parsed('before:2026-11-20'), before('2026-11-20T00:00:00Z'));
    assert.deepEqual(parsed('after:2026-11-20', 'Pacific/Auckland'), after('2026-11-19T11:00:00Z'));
    assert.deepEqual(parsed('after:2026-07-01', 'Pacific/Auckland'), after('2026-06-30T12:00:00Z'));
    assert.deepEqual(parsed('after:"2026-03-29 01:30"', 'Europe/Berlin'), after('2026-03-29T00:30:00Z'));
    assert.deepEqual(parsed('after:"2026-03-29 03:30"', 'Europe/Berlin'), after('2026-03-29T01:30:00Z'));
    assert.deepEqual(parsed('-after:2026-11-20', 'America/New_York'), not(after('2026-11-20T05:00:00Z')));
  });

  it('ignores a tz it does not know, as Mailpit does, and a date that names its own offset', () => {
    assert.deepEqual(parsed('after:2026-11-20', 'Mars/Olympus'), after('2026-11-20T00:00:00Z'));
    assert.deepEqual(parsed('after:2026-11-20T10:30:00Z', 'Pacific/Auckland'), after('2026-11-20T10:30:00Z'));
    assert.deepEqual(parsed('after:2026-11-20T10:30:00+05:30', 'Pacific/Auckland'), after('2026-11-20T05:00:00Z'));
    assert.deepEqual(parsed('after:"Fri, 20 Nov 2026 10:00:00 +0100"', 'Pacific/Auckland'), after('2026-11-20T09:00:00Z'));
  });

  it('reads the other date forms people type: slashes (month first when the year is last), dots, names, compact, Unix time', () => {
    const midnight = after('2026-11-20T00:00:00Z');
    for (const form of ['2026/11/20', '2026.11.20', '11/20/2026', '"20 Nov 2026"', '"Nov 20, 2026"', '"November 20 2026"', '20-nov-2026', '20261120']) {
      assert.deepEqual(parsed(`after:${form}`), midnight, form);
    }
    assert.deepEqual(parsed(`after:${Date.parse('2026-11-20T00:00:00Z') / 1000}`), midnight);
    assert.deepEqual(parsed(`after:${Date.parse('2026-11-20T00:00:00Z')}`), midnight);
    assert.deepEqual(parsed('before:"2026-11-20 18:45:30"', 'UTC'), before('2026-11-20T18:45:30Z'));
    assert.deepEqual(parsed('before:2026-11-20T18:45'), before('2026-11-20T18:45:00Z'));
  });

  it('keeps the bounds of q: its length and its text terms are refused with invalid_query', () => {
    const refused = (query: string, mention: RegExp) => assert.throws(() => parseMailpitSearch(query), (error: unknown) => {
      assert.ok(error instanceof AppError && error.code === 'invalid_query', String(error));
      assert.match(error.message, mention);
      return true;
    });
    refused(Array.from({ length: 17 }, (_, i) => `word${i}`).join(' '), /17 text terms/);
    refused('x'.repeat(2001), /longer than 2000/);
    refused('a b c d e', /one or two characters/);
    assert.equal((parseMailpitSearch(Array(240).fill('is:read').join(' ')) as { children: unknown[] }).children.length, 240);
  });
});
