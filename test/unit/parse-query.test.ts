// The q language parser: precedence, negation, quoting, operators, and errors that name the term and position.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { listFilter, parseQuery } from '../../src/query/parse-query.js';
import type { QueryNode } from '../../src/query/ast.js';

const text = (needle: string, fields = ['subject', 'sender', 'recipients', 'body']): QueryNode => ({ kind: 'text', fields: fields as never, needle });

function invalidAt(query: string, position: number, mention: RegExp) {
  assert.throws(() => parseQuery(query), (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'invalid_query');
    assert.match(error.message, new RegExp(`position ${position}\\b`), error.message);
    assert.match(error.message, mention);
    return true;
  });
}

describe('parseQuery', () => {
  it('an empty query selects everything', () => {
    assert.deepEqual(parseQuery(''), { kind: 'and', children: [] });
    assert.deepEqual(parseQuery('   '), { kind: 'and', children: [] });
  });

  it('juxtaposition is AND and OR binds tighter', () => {
    assert.deepEqual(parseQuery('from:alice OR from:bob subject:invoice'), {
      kind: 'and',
      children: [
        { kind: 'or', children: [text('alice', ['sender']), text('bob', ['sender'])] },
        text('invoice', ['subject']),
      ],
    });
  });

  it('parentheses group and - or ! negate a term or a group', () => {
    assert.deepEqual(parseQuery('(one OR two) -three !(four five)'), {
      kind: 'and',
      children: [
        { kind: 'or', children: [text('one'), text('two')] },
        { kind: 'not', child: text('three') },
        { kind: 'not', child: { kind: 'and', children: [text('four'), text('five')] } },
      ],
    });
  });

  it('lower-case or is a word, and - inside a word is part of it', () => {
    assert.deepEqual(parseQuery('this or that'), { kind: 'and', children: [text('this'), text('or'), text('that')] });
    assert.deepEqual(parseQuery('re-send'), text('re-send'));
  });

  it('phrases collapse white space and fold case', () => {
    assert.deepEqual(parseQuery('"Weekly \t  REPORT"'), text('weekly report'));
    assert.deepEqual(parseQuery('ÉCOLE'), text('école'));
    assert.deepEqual(parseQuery('subject:"Weekly Report"'), text('weekly report', ['subject']));
  });

  it('a word:rest token whose word is no operator is free text', () => {
    assert.deepEqual(parseQuery('https://example.com/x'), text('https://example.com/x'));
    assert.deepEqual(parseQuery('note:hello'), text('note:hello'));
  });

  it('operator names and is/has values are case-insensitive', () => {
    assert.deepEqual(parseQuery('IS:Unread'), { kind: 'read', value: false });
    assert.deepEqual(parseQuery('is:read'), { kind: 'read', value: true });
    assert.deepEqual(parseQuery('Is:TAGGED'), { kind: 'tagged' });
    assert.deepEqual(parseQuery('HAS:Attachments'), { kind: 'has_attachment' });
    assert.deepEqual(parseQuery('has:attachment'), { kind: 'has_attachment' });
    assert.deepEqual(parseQuery('has:code'), { kind: 'has_code' });
    assert.deepEqual(parseQuery('HAS:Codes'), { kind: 'has_code' });
    assert.deepEqual(parseQuery('TAG:"Needs Review"'), { kind: 'tag', name: 'needs review' });
    assert.deepEqual(parseQuery('To:Bob'), text('bob', ['recipients']));
  });

  it('searches one header each with to-header:, cc:, bcc:, reply-to: and message-id:, every address header with addressed:', () => {
    assert.deepEqual(parseQuery('to-header:bob'), text('bob', ['to']));
    assert.deepEqual(parseQuery('CC:Carol'), text('carol', ['cc']));
    assert.deepEqual(parseQuery('bcc:dan'), text('dan', ['bcc']));
    assert.deepEqual(parseQuery('reply-to:"Help Desk"'), text('help desk', ['replyTo']));
    assert.deepEqual(parseQuery('message-id:<ABC@x.test>'), text('<abc@x.test>', ['messageId']));
    assert.deepEqual(parseQuery('addressed:eve'), text('eve', ['sender', 'to', 'cc', 'bcc', 'replyTo']));
    assert.deepEqual(parseQuery('-addressed:eve'), { kind: 'not', child: text('eve', ['sender', 'to', 'cc', 'bcc', 'replyTo']) });
    assert.deepEqual(parseQuery('has:inline'), { kind: 'has_inline' });
    assert.deepEqual(parseQuery('HAS:Inlines'), { kind: 'has_inline' });
    invalidAt('cc:', 1, /needs a value/);
    invalidAt('x addressed:""', 3, /addressed:/);
  });

  it('reads sizes with 1024-based units, decimals and an optional b', () => {
    const size = (q: string) => (parseQuery(q) as { bytes: number }).bytes;
    assert.equal(size('larger:500'), 500);
    assert.equal(size('larger:10k'), 10240);
    assert.equal(size('larger:1.5m'), 1.5 * 1024 * 1024);
    assert.equal(size('smaller:2GB'), 2 * 1024 ** 3);
    assert.equal(size('larger:3Kb'), 3072);
    assert.deepEqual(parseQuery('smaller:1k'), { kind: 'size', op: 'lt', bytes: 1024 });
  });

  it('reads dates as UTC midnight and date-times with their offset', () => {
    assert.deepEqual(parseQuery('after:2026-11-20'), { kind: 'received', op: 'gte', at: new Date('2026-11-20T00:00:00Z') });
    assert.deepEqual(parseQuery('before:2026-11-20T14:30:00+02:00'), { kind: 'received', op: 'lt', at: new Date('2026-11-20T12:30:00Z') });
    assert.deepEqual(parseQuery('after:2026-11-20T14:30Z'), { kind: 'received', op: 'gte', at: new Date('2026-11-20T14:30:00Z') });
  });

  it('names the term and its position for invalid operator values', () => {
    invalidAt('hello larger:abc', 7, /larger:abc/);
    invalidAt('after:yesterdayish', 1, /after:yesterdayish/);
    invalidAt('a is:starred', 3, /is:starred/);
    invalidAt('has:pictures', 1, /has:pictures/);
    invalidAt('before:2026-02-30', 1, /before:2026-02-30/);
    invalidAt('after:2026-11-20T10:00', 1, /offset/);
    invalidAt('from:', 1, /from:/);
    invalidAt('subject:""', 1, /subject/);
  });

  it('refuses unbalanced quotes and parentheses, dangling OR and negation', () => {
    invalidAt('say "hello', 5, /quote/);
    invalidAt('(a OR b', 1, /unbalanced '\('/);
    invalidAt('a) b', 2, /unbalanced '\)'/);
    invalidAt('OR a', 1, /OR/);
    invalidAt('a OR', 3, /OR/);
    invalidAt('a OR OR b', 3, /OR/);
    invalidAt('a - b', 3, /negates/);
    invalidAt('a -', 3, /negates/);
    invalidAt('()', 1, /empty/);
    invalidAt('""', 1, /nothing to search/);
  });

  it('refuses nesting deeper than 100 groups or negations, and accepts 100', () => {
    assert.doesNotThrow(() => parseQuery(`${'-'.repeat(100)}a`));
    invalidAt(`${'-'.repeat(101)}a`, 101, /nest more than 100/);
    invalidAt(`${'('.repeat(101)}a${')'.repeat(101)}`, 101, /nest more than 100/);
  });

  it('counts the length limit in characters, not UTF-16 units', () => {
    const query = `${'😀'.repeat(500)} ${'is:read '.repeat(187)}`;
    assert.ok(query.length > 2000 && [...query].length <= 2000);
    assert.doesNotThrow(() => parseQuery(query));
  });

  it('bounds the text terms of a query: their number, their characters and the short ones', () => {
    const refused = (query: string, mention: RegExp) => assert.throws(() => parseQuery(query), (error: unknown) => {
      assert.ok(error instanceof AppError && error.code === 'invalid_query', String(error));
      assert.match(error.message, mention);
      return true;
    });
    const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
    assert.doesNotThrow(() => parseQuery(words(16)));
    refused(words(17), /17 text terms; at most 16 per query/);
    refused(`-${words(17).replace(/ /g, ' -')}`, /17 text terms/);
    refused(`from:${words(9).replace(/ /g, ' OR subject:')} ${words(8)}`, /17 text terms/);
    // The attack that held the event loop: hundreds of negated two-letter terms.
    refused(Array.from({ length: 500 }, (_, i) => `-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' '), /500 text terms/);
    assert.doesNotThrow(() => parseQuery(`${'x'.repeat(512)} is:read`));
    refused(`${'x'.repeat(300)} ${'y'.repeat(213)}`, /hold 513 characters; at most 512/);
    assert.doesNotThrow(() => parseQuery('-zz -zy -zx "a b" subject:q'));
    refused('-zz -zy -zx -zw -zv', /5 text terms of one or two characters; at most 4/);
    // The list parameters count with q.
    assert.throws(() => listFilter({ q: words(16), from: 'alice' }), /17 text terms/);
  });

  it('keeps years before 100 as written', () => {
    assert.deepEqual(parseQuery('after:0050-01-01'), { kind: 'received', op: 'gte', at: new Date('0050-01-01T00:00:00Z') });
  });

  it('refuses queries over the length limit', () => {
    assert.throws(() => parseQuery('a'.repeat(2001)), (error: unknown) => error instanceof AppError && error.code === 'invalid_query');
  });
});

describe('listFilter', () => {
  it('combines q with the list parameters by AND', () => {
    assert.deepEqual(listFilter({ q: 'is:unread', from: 'Alice', to: 'Bob', subject: 'Hi', since: '2026-11-01T00:00:00Z' }), {
      kind: 'and',
      children: [
        { kind: 'read', value: false },
        text('alice', ['sender']),
        text('bob', ['recipients']),
        text('hi', ['subject']),
        { kind: 'received', op: 'gte', at: new Date('2026-11-01T00:00:00Z') },
      ],
    });
    assert.deepEqual(listFilter({}), { kind: 'and', children: [] });
  });
});
