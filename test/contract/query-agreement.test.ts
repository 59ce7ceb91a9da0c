// Property: for random messages and random queries, every backend's list filter selects exactly
// what the in-memory matcher selects, in newest-first order.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseQuery } from '../../src/query/parse-query.js';
import { parseMailpitSearch } from '../../src/query/mailpit-search.js';
import type { QueryNode } from '../../src/query/ast.js';
import { matches } from '../../src/query/match.js';
import { searchBody, searchFields } from '../../src/domain/search-text.js';
import type { MessageRecord } from '../../src/domain/types.js';
import type { MessagePage, MessagePosition } from '../../src/storage/ports.js';
import { searchPlanFactories, type BackendUnderTest } from './backends.js';
import { headerKeysOf, insertOne, aMessage, UNLIMITED } from './fixtures.js';

const WORDS = ['alpha', 'beta', 'Gamma', 'école', 'ÉCOLE', 'straße', 'ab', 'x', 'report', 'weekly', 'reset', '4711', 'a.b@c.test', 'Ωmega'];
const TAGS = ['urgent', 'review', 'qa'];

const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 5 }).chain((words) =>
  fc.array(fc.constantFrom(' ', '  ', '\n', '\t '), { minLength: words.length, maxLength: words.length })
    .map((gaps) => words.map((word, i) => word + gaps[i]).join('')));

/** Spellings of a few mailboxes and of their near misses: case, quoting, IDN and punycode, sub-addresses, a homograph. */
const ADDRESSES = [
  'alice@x.test', 'ALICE@X.Test', 'malice@x.test', 'alice+tag@x.test', 'alice@x.test.evil', '\u0430lice@x.test', '"john smith"@x.test', '"john.smith"@x.test',
  'John.Smith@x.test', 'δοκιμή@παράδειγμα.δοκιμή', 'ΔΟΚΙΜΉ@xn--hxajbheg2az3al.xn--jxalpdlp', 'zoë@bücher.example',
];
/** An address header: words (a display name, or junk) and up to two addresses. */
const addressHeader = fc.tuple(sentence, fc.subarray(ADDRESSES, { maxLength: 2 })).map(([words, addresses]) => [words, ...addresses].filter((part) => part.trim() !== '').join(', '));

const DAY = 24 * 3600 * 1000;
const START = Date.parse('2026-11-01T00:00:00Z');

const messageArb = fc.record({
  subject: sentence,
  from: addressHeader,
  envelopeFrom: fc.constantFrom('alpha@x.test', 'beta@y.test', '', 'Alice@x.test', '"john smith"@x.test'),
  to: addressHeader,
  cc: addressHeader,
  bcc: addressHeader,
  replyTo: addressHeader,
  recipients: fc.array(fc.constantFrom('gamma@z.test', 'reset@x.test', 'ab@q.test', 'ALICE@x.test', 'john.smith@x.test', 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp'), { maxLength: 3 }),
  messageId: fc.constantFrom('<alpha.4711@x.test>', '<Report-2@y.test>', '<ab@q.test>', ''),
  text: sentence,
  html: sentence,
  read: fc.boolean(),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
  attachmentCount: fc.integer({ min: 0, max: 2 }),
  inline: fc.boolean(),
  // Boundary values of the size and date operands below are included on purpose: off-by-one comparisons show there.
  size: fc.oneof(fc.integer({ min: 100, max: 4000 }), fc.constantFrom(1000, 1024, 2560, 3000)),
  receivedAt: fc.oneof(
    fc.integer({ min: 0, max: 29 * DAY }).map((offset) => new Date(START + offset)),
    fc.constantFrom(new Date('2026-11-10T00:00:00Z'), new Date('2026-11-20T12:00:00Z'), new Date('2026-11-14T19:00:00Z')),
  ),
});

const operand = fc.oneof(
  fc.constantFrom(...WORDS.filter((w) => !w.includes(' '))),
  fc.constantFrom('"weekly report"', '"alpha  beta"', '"école x"', '"ab"'),
  fc.tuple(fc.constantFrom('from', 'to', 'subject', 'FROM', 'to-header', 'cc', 'bcc', 'reply-to', 'addressed', 'message-id'), fc.constantFrom(...WORDS))
    .map(([op, w]) => `${op}:${w}`),
  fc.tuple(fc.constantFrom('from', 'to', 'To', 'to-header', 'cc', 'bcc', 'reply-to', 'addressed'), fc.constantFrom(...ADDRESSES, '<alice@x.test>', '"alice@X.test"', '"john smith@x.test"'))
    .map(([op, address]) => `${op}:=${address}`),
  fc.constantFrom('is:read', 'is:unread', 'is:tagged', 'has:attachment', 'has:inline', 'tag:urgent', 'TAG:Review', 'tag:none'),
  fc.tuple(fc.constantFrom('larger', 'smaller'), fc.constantFrom('1000', '1k', '2.5k', '3000b')).map(([op, n]) => `${op}:${n}`),
  fc.tuple(fc.constantFrom('after', 'before'), fc.constantFrom('2026-11-10', '2026-11-20T12:00:00Z', '2026-11-15T00:00:00+05:00')).map(([op, d]) => `${op}:${d}`),
);

const queryArb: fc.Arbitrary<string> = fc.letrec<{ expr: string; seq: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    operand,
    tie('expr').map((e) => `-${e}`),
    tie('expr').map((e) => `!${e}`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} OR ${b}`),
    tie('seq').map((s) => `(${s})`),
  ),
  seq: fc.array(tie('expr'), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' ')),
// Within the text limits a query must keep (parseQuery refuses the others, as tested in the unit tests).
})).seq.filter((query) => {
  try {
    parseQuery(query);
    return true;
  } catch {
    return false;
  }
});

/** Mailpit's operators, the forms of its values and the terms it drops or reads as words, negated now and then. */
const mailpitTerm = fc.oneof(
  fc.constantFrom(...WORDS.filter((w) => !w.includes(' '))),
  fc.constantFrom('"weekly report"', '"alpha  beta"', '"école x"', '<a.b@c.test>', '"ab"'),
  fc.tuple(fc.constantFrom('from', 'to', 'cc', 'bcc', 'reply-to', 'addressed', 'message-id', 'subject', 'TO', 'Addressed'), fc.constantFrom(...WORDS, '<alpha.4711@x.test>', '"weekly report"'))
    .map(([op, w]) => `${op}:${w}`),
  fc.constantFrom('is:read', 'is:unread', 'is:tagged', 'has:attachment', 'has:attachments', 'has:inline', 'HAS:Inlines', 'tag:urgent', 'tag:Review', 'tag:none'),
  fc.tuple(fc.constantFrom('larger', 'smaller'), fc.constantFrom('1000', '1k', '2.5kb', '1M', '3000b', '1g', '0')).map(([op, n]) => `${op}:${n}`),
  fc.tuple(fc.constantFrom('after', 'before'), fc.constantFrom('2026-11-10', '2026/11/20', '11/14/2026', '"20 Nov 2026"', '2026-11-20T12:00:00Z', '"2026-11-14 19:00"', '1763640000'))
    .map(([op, d]) => `${op}:${d}`),
  // Dropped: nothing to search for, or no date. Read as words: is: and has: values Mailpit does not know.
  fc.constantFrom('to:', 'from:<>', 'subject:', 'tag:', 'after:someday', 'before:2026-02-30', '"<>"', 'is:starred', 'has:pdf'),
);

const mailpitQueryArb = fc.array(fc.tuple(fc.constantFrom('', '', '-', '!'), mailpitTerm).map(([sign, term]) => sign + term), { minLength: 1, maxLength: 4 })
  .map((terms) => terms.join(' '))
  .filter((query) => {
    try {
      parseMailpitSearch(query);
      return true;
    } catch {
      return false;
    }
  });

const newestFirst = (a: MessageRecord, b: MessageRecord) =>
  b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

for (const factory of searchPlanFactories) {
  describe(`query semantics agree with the matcher (${factory.profile})`, function () {
    // A guard against a hang, not a target: npm test runs this beside other suites on two cores.
    this.timeout(180_000);
    let under: BackendUnderTest;
    const stored: MessageRecord[] = [];

    before(async () => {
      under = await factory.open();
      const generated = fc.sample(messageArb, { numRuns: 200, seed: 4711 });
      for (const g of generated) {
        const base = aMessage('ws_q', 'inb_q', {
          subject: g.subject, from: g.from, envelopeFrom: g.envelopeFrom, to: g.to, cc: g.cc, recipients: g.recipients,
          messageId: g.messageId, read: g.read, tags: g.tags, attachmentCount: g.attachmentCount, inlineCount: g.inline ? g.attachmentCount : 0,
          size: g.size, receivedAt: g.receivedAt,
        });
        const headerAddresses = headerKeysOf({ from: g.from, to: g.to, cc: g.cc, bcc: g.bcc, replyTo: g.replyTo });
        const record = { ...base, search: searchFields({ ...base, bcc: g.bcc, replyTo: g.replyTo, headerAddresses }, searchBody(g.text, g.html)) };
        await insertOne(under.backend.captures, record, UNLIMITED);
        stored.push(record);
      }
    });
    after(() => under.dispose());

    /** The backend's answer, whole and in pages of 7, and its count, against the matcher's. */
    const agrees = async (filter: QueryNode, query: string) => {
      const selected = stored.filter((m) => matches(filter, m));
      const expected = [...selected].sort(newestFirst).map((m) => m.id);
      const actual = (await under.backend.messages.list('ws_q', 'inb_q', { filter, limit: 1000, after: null })).records.map((m) => m.id);
      assert.deepEqual(actual, expected, `query: ${query}`);
      assert.deepEqual(await under.backend.messages.count('ws_q', 'inb_q', filter), { messages: selected.length, unread: selected.filter((m) => !m.read).length }, `counted query: ${query}`);
      const paged: string[] = [];
      let after: MessagePosition | null = null;
      for (;;) {
        const page: MessageRecord[] = (await under.backend.messages.list('ws_q', 'inb_q', { filter, limit: 7, after })).records;
        paged.push(...page.map((m) => m.id));
        const last = page.at(-1);
        if (page.length < 7 || !last) break;
        after = { receivedAt: last.receivedAt, id: last.id };
      }
      assert.deepEqual(paged, expected, `paged query: ${query}`);
    };

    it('returns exactly the matching messages for 300 random queries in Mailpit\'s search language, whole and in pages', async () => {
      await fc.assert(fc.asyncProperty(mailpitQueryArb, fc.constantFrom(undefined, 'Pacific/Auckland', 'America/New_York', 'Not/AZone'), async (query, tz) => {
        await agrees(parseMailpitSearch(query, tz === undefined ? {} : { tz }), `${query} (tz ${tz})`);
      }), { numRuns: 300, seed: 20261201 });
    });

    it('returns exactly the matching messages for 400 random queries, whole and in pages', async () => {
      await fc.assert(fc.asyncProperty(queryArb, async (query) => {
        await agrees(parseQuery(query), query);
      }), { numRuns: 400, seed: 20261121 });
    });

    it('pages that stop at a scan limit, followed by the position each gives, add up to the same sequence', async () => {
      await fc.assert(fc.asyncProperty(queryArb, async (query) => {
        const filter = parseQuery(query);
        const expected = stored.filter((m) => matches(filter, m)).sort(newestFirst).map((m) => m.id);
        const budgeted: string[] = [];
        let after: MessagePosition | null = null;
        for (let pages = 0; ; pages++) {
          assert.ok(pages <= 60, `budgeted paging of ${query} does not end`);
          // Pages of up to 7 that may examine 15 messages each: some fill, some stop at the limit.
          const { records, scannedTo }: MessagePage = await under.backend.messages.list('ws_q', 'inb_q', { filter, limit: 7, after, scanLimit: 15 });
          budgeted.push(...records.map((m) => m.id));
          const last = records.at(-1);
          if (scannedTo) after = scannedTo;
          else if (records.length === 7 && last) after = { receivedAt: last.receivedAt, id: last.id };
          else break;
        }
        assert.deepEqual(budgeted, expected, `budgeted paged query: ${query}`);
      }), { numRuns: 40, seed: 20261126 });
    });

    it('ends pages at exactly the scan limit\'s last message whatever the arrivals\' pace, the limit beyond the newest 64', async () => {
      const HOUR = 3600 * 1000;
      const end = START + 40 * DAY;
      // Ages of 250 messages, newest first: how far back each is from `end`.
      const paces: Record<string, (i: number) => number> = {
        // One a second: the newest messages' pace holds for the whole inbox.
        steady: (i) => i * 1000,
        // 80 within half a second, then one an hour: the newest pace promises far more than the older messages hold.
        'burst, then sparse': (i) => (i < 80 ? i * 6 : 500 + (i - 79) * HOUR),
        // One an hour, then 200 within a second: the newest pace promises far fewer.
        'sparse, then dense': (i) => (i < 50 ? i * HOUR : 50 * HOUR + (i - 50) * 5),
      };
      for (const [pace, age] of Object.entries(paces)) {
        const inboxId = `inb_pace_${pace.replace(/\W+/g, '_')}`;
        const records = Array.from({ length: 250 }, (_, i) => {
          const base = aMessage('ws_q', inboxId, { receivedAt: new Date(end - age(i)), read: false });
          return { ...base, search: searchFields({ ...base, bcc: '', replyTo: '', headerAddresses: headerKeysOf(base) }, '') };
        });
        for (let start = 0; start < records.length; start += 50) {
          const outcomes = await under.backend.captures.storeAll(records.slice(start, start + 50).map((record) => ({ record, charge: UNLIMITED, blobs: [] })));
          assert.ok(outcomes.every((outcome) => outcome === 'stored'), `${pace}: ${outcomes.find((outcome) => outcome !== 'stored')}`);
        }
        const order = [...records].sort(newestFirst);
        // is:read selects none of them and has no text to look up first: every page examines the limit and stops.
        const filter = parseQuery('is:read');
        const ends: (string | null)[] = [];
        let after: MessagePosition | null = null;
        do {
          const { records: found, scannedTo }: MessagePage = await under.backend.messages.list('ws_q', inboxId, { filter, limit: 10, after, scanLimit: 100 });
          assert.deepEqual(found, [], pace);
          ends.push(scannedTo?.id ?? null);
          after = scannedTo;
        } while (after);
        assert.deepEqual(ends, [order[99]!.id, order[199]!.id, null], `${pace}: the 100th and the 200th message end the first two pages, and the last 50 end the walk`);
      }
    });

    it('runs the largest queries the limits allow (16 text terms, 4 of them short; 250 ANDed or 200 ORed others) and still agrees', async () => {
      const atTextLimits = ['a', 'x', 'ab', 'é', ...Array.from({ length: 12 }, (_, i) => WORDS.filter((word) => word.length > 2)[i % 10]!)];
      for (const query of [atTextLimits.join(' '), atTextLimits.map((term) => `-${term}`).join(' OR '), Array(250).fill('is:read').join(' '), Array(200).fill('tag:qa').join(' OR ')]) {
        const filter = parseQuery(query);
        const expected = stored.filter((m) => matches(filter, m)).sort(newestFirst).map((m) => m.id);
        const actual = (await under.backend.messages.list('ws_q', 'inb_q', { filter, limit: 1000, after: null })).records.map((m) => m.id);
        assert.deepEqual(actual, expected, query.slice(0, 40));
      }
    });

    it('finds 1- and 2-character needles at the start, middle and very end of a field, spaces and punctuation included', async () => {
      const subjects = ['xq middle zy', 'k', 'ends with .!', 'é😀', '', 'a b'];
      const shortOnes: MessageRecord[] = [];
      for (const subject of subjects) {
        const base = aMessage('ws_q', 'inb_short', { subject, from: '', envelopeFrom: '', to: '', cc: '', recipients: [] });
        const record = { ...base, search: searchFields({ ...base, bcc: '', replyTo: '', headerAddresses: headerKeysOf(base) }, '') };
        await insertOne(under.backend.captures, record, UNLIMITED);
        shortOnes.push(record);
      }
      const found = async (query: string) => {
        const filter = parseQuery(query);
        const actual = (await under.backend.messages.list('ws_q', 'inb_short', { filter, limit: 100, after: null })).records.map((m) => m.subject).sort();
        assert.deepEqual(actual, shortOnes.filter((m) => matches(filter, m)).map((m) => m.subject).sort(), `query: ${query}`);
        return actual;
      };
      assert.deepEqual(await found('subject:w'), ['ends with .!']);
      assert.deepEqual(await found('subject:xq'), ['xq middle zy'], 'at the start');
      assert.deepEqual(await found('subject:dd'), ['xq middle zy'], 'in the middle');
      assert.deepEqual(await found('subject:y'), ['xq middle zy'], 'the last character');
      assert.deepEqual(await found('subject:zy'), ['xq middle zy'], 'the last two characters');
      assert.deepEqual(await found('subject:k'), ['k'], 'a one-character field');
      assert.deepEqual(await found('subject:.!'), ['ends with .!'], 'punctuation at the end');
      assert.deepEqual(await found('subject:"h ."'), ['ends with .!'], 'a space and punctuation');
      assert.deepEqual(await found('subject:" b"'), ['a b'], 'a space first');
      assert.deepEqual(await found('subject:"a "'), ['a b'], 'a space last');
      assert.deepEqual(await found('subject:😀'), ['é😀'], 'a character outside the BMP, last');
      assert.deepEqual(await found('subject:é😀'), ['é😀']);
      assert.deepEqual(await found('subject:"zy "'), [], 'nothing follows the last character');
      assert.deepEqual(await found('subject:"y "'), []);
    });

    it('selects what each Mailpit operator and its q spelling select, row by row: to: versus addressed:, drops, dates in a tz', async () => {
      const headers = (subject: string, h: Partial<Record<'from' | 'to' | 'cc' | 'bcc' | 'replyTo' | 'messageId', string>> & { recipients: string[] }, extra: Partial<MessageRecord>) => {
        const base = aMessage('ws_q', 'inb_mailpit', {
          subject, from: h.from ?? 'ana@x.test', envelopeFrom: 'bounce@x.test', to: h.to ?? '', cc: h.cc ?? '', messageId: h.messageId ?? '', recipients: h.recipients,
          read: false, tags: [], attachmentCount: 0, inlineCount: 0, size: 500, ...extra,
        });
        const headerAddresses = headerKeysOf({ ...base, bcc: h.bcc ?? '', replyTo: h.replyTo ?? '' });
        return { ...base, search: searchFields({ ...base, bcc: h.bcc ?? '', replyTo: h.replyTo ?? '', headerAddresses }, searchBody(`body of ${subject}`, '')) };
      };
      const messages = [
        headers('one', { to: 'Bob <bob@x.test>', cc: 'carol@x.test', replyTo: 'help@x.test', messageId: '<m1@x.test>', recipients: ['bob@x.test', 'carol@x.test', 'dan@x.test'] },
          { attachmentCount: 2, inlineCount: 1, size: 4000, read: true, receivedAt: new Date('2026-11-19T10:00:00Z') }),
        headers('two', { from: 'bob@x.test', to: 'carol@x.test', messageId: '<m2@x.test>', recipients: ['carol@x.test'] },
          { attachmentCount: 1, tags: ['qa'], receivedAt: new Date('2026-11-19T12:00:00Z') }),
        headers('three', { to: 'team@x.test', bcc: 'bob@x.test', recipients: ['team@x.test', 'bob@x.test'] }, { receivedAt: new Date('2026-11-20T09:00:00Z') }),
        headers('four', { to: 'team@x.test', replyTo: 'Bob <bob@x.test>', recipients: ['team@x.test'] }, { receivedAt: new Date('2026-11-21T09:00:00Z') }),
      ];
      for (const record of messages) await insertOne(under.backend.captures, record, UNLIMITED);
      const selected = async (filter: QueryNode) => {
        const found = (await under.backend.messages.list('ws_q', 'inb_mailpit', { filter, limit: 100, after: null })).records.map((m) => m.subject);
        assert.deepEqual(found, messages.filter((m) => matches(filter, m)).sort(newestFirst).map((m) => m.subject), 'the matcher agrees');
        return found.sort();
      };
      // [Mailpit query, the same in q, what both select]
      const rows: [string, string, string[]][] = [
        ['to:bob', 'to-header:bob', ['one']],
        ['addressed:bob', 'addressed:bob', ['four', 'one', 'three', 'two']],
        ['from:bob', 'from:bob', ['two']],
        ['cc:carol', 'cc:carol', ['one']],
        ['bcc:dan', 'bcc:dan', ['one']],
        ['bcc:bob', 'bcc:bob', ['three']],
        ['reply-to:bob', 'reply-to:bob', ['four']],
        ['reply-to:<help@x.test>', 'reply-to:help@x.test', ['one']],
        ['message-id:<m1@x.test>', 'message-id:m1@x.test', ['one']],
        ['subject:tw', 'subject:tw', ['two']],
        ['tag:QA', 'tag:qa', ['two']],
        ['is:read', 'is:read', ['one']],
        ['is:unread', 'is:unread', ['four', 'three', 'two']],
        ['is:tagged', 'is:tagged', ['two']],
        ['has:attachments', 'has:attachment', ['one', 'two']],
        ['has:inline', 'has:inline', ['one']],
        ['larger:1k', 'larger:1k', ['one']],
        ['smaller:0.5kb', 'smaller:512', ['four', 'three', 'two']],
        ['"body of t"', '"body of t"', ['three', 'two']],
        ['-to:bob !has:inline', '-to-header:bob -has:inline', ['four', 'three', 'two']],
        ['-addressed:bob', '-addressed:bob', []],
        ['to: from:<> subject: tag: "<>" -<>', '', ['four', 'one', 'three', 'two']],
        ['after:someday before:2026-02-30 from:bob', 'from:bob', ['two']],
        ['is:starred', '"is:starred"', []],
        ['larger:1g', '"larger:1g"', []],
        ['after:2026-11-20', 'after:2026-11-20T00:00:00Z', ['four', 'three']],
        ['before:2026-11-19T12:00:00Z', 'before:2026-11-19T12:00:00.001Z', ['one', 'two']],
      ];
      for (const [mailpit, q, expected] of rows) {
        assert.deepEqual(await selected(parseMailpitSearch(mailpit)), expected, `Mailpit: ${mailpit}`);
        assert.deepEqual(await selected(parseQuery(q)), expected, `q: ${q}`);
      }
      // 2026-11-20 in Auckland began at 11:00 UTC on the 19th; in New York it begins at 05:00 UTC on the 20th.
      assert.deepEqual(await selected(parseMailpitSearch('after:2026-11-20', { tz: 'Pacific/Auckland' })), ['four', 'three', 'two']);
      assert.deepEqual(await selected(parseMailpitSearch('before:"2026-11-20 04:00"', { tz: 'America/New_York' })), ['one', 'three', 'two']);
    });

    it('selects a non-trivial share of messages, so the agreement means something', async () => {
      const samples = ['alpha', 'école', '"weekly report"', 'is:unread', 'tag:urgent', 'larger:2k', 'from:beta', 'ab',
        'to-header:gamma', 'cc:report', 'bcc:reset', 'bcc:alpha', 'reply-to:beta', 'addressed:weekly', 'message-id:report', 'has:inline'];
      for (const query of samples) {
        const count = stored.filter((m) => matches(parseQuery(query), m)).length;
        assert.ok(count > 0 && count < stored.length, `${query} selects ${count} of ${stored.length}`);
      }
      for (const query of ['to:gamma', 'addressed:alpha', 'message-id:<alpha.4711@x.test>', '-has:inlines', 'after:"20 Nov 2026"']) {
        const count = stored.filter((m) => matches(parseMailpitSearch(query), m)).length;
        assert.ok(count > 0 && count < stored.length, `Mailpit's ${query} selects ${count} of ${stored.length}`);
      }
    });
  });
}
