// The exact form of the address operators (`to:=alice@example.test`): how q reads it, what the matcher selects, how a
// wait's explanation writes it back, and the lookups each backend compiles it to. Agreement with the backends on
// stored messages is test/contract/query-agreement.test.ts and test/contract/message-index.test.ts.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { parseQuery, QUERY_ADDRESS_TERMS } from '../../src/query/parse-query.js';
import { matches, type MatchableMessage } from '../../src/query/match.js';
import { queryTerms } from '../../src/query/query-terms.js';
import { requiredAddresses, type QueryNode } from '../../src/query/ast.js';
import { compileSql, requiredAddressHits } from '../../src/storage/embedded/compile-sql.js';
import { compileEs, requiredLookupsEs } from '../../src/storage/cluster/compile-es.js';
import { noAddresses } from '../../src/domain/mailbox-key.js';
import type { AddressKeys } from '../../src/domain/types.js';

function invalid(query: string, mention: RegExp) {
  assert.throws(() => parseQuery(query), (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'invalid_query');
    assert.match(error.message, /position 1\b/, error.message);
    assert.match(error.message, mention);
    return true;
  });
}

const message = (addresses: Partial<AddressKeys>): MatchableMessage => ({
  read: false, tags: [], attachmentCount: 0, inlineCount: 0, codes: [], size: 10, receivedAt: new Date(0),
  search: { subject: '', sender: '', recipients: '', body: '', to: '', cc: '', bcc: '', replyTo: '', messageId: '', addresses: { ...noAddresses(), ...addresses } },
});

describe('exact-address terms', () => {
  it('read each address operator\'s lists: to: every recipient, from: the From header and the envelope sender', () => {
    const fieldsOf = (query: string) => (parseQuery(query) as Extract<QueryNode, { kind: 'address' }>).fields;
    assert.deepEqual(fieldsOf('to:=a@x.test'), ['to', 'cc', 'bcc']);
    assert.deepEqual(fieldsOf('TO:=a@x.test'), ['to', 'cc', 'bcc']);
    assert.deepEqual(fieldsOf('from:=a@x.test'), ['from', 'envelopeFrom']);
    assert.deepEqual(fieldsOf('to-header:=a@x.test'), ['to']);
    assert.deepEqual(fieldsOf('cc:=a@x.test'), ['cc']);
    assert.deepEqual(fieldsOf('bcc:=a@x.test'), ['bcc']);
    assert.deepEqual(fieldsOf('reply-to:=a@x.test'), ['replyTo']);
    assert.deepEqual(fieldsOf('addressed:=a@x.test'), ['from', 'envelopeFrom', 'to', 'cc', 'bcc', 'replyTo']);
  });

  it('key the address, written plain, with its local part quoted, quoted whole or in angle brackets', () => {
    const keyOf = (query: string) => (parseQuery(query) as Extract<QueryNode, { kind: 'address' }>).key;
    assert.equal(keyOf('to:=Alice@Example.TEST'), 'alice@example.test');
    assert.equal(keyOf('to:="alice@example.test"'), 'alice@example.test');
    assert.equal(keyOf('to:=<alice@example.test>'), 'alice@example.test');
    assert.equal(keyOf('to:="john smith"@example.test'), 'john smith@example.test');
    assert.equal(keyOf('to:="john.smith"@example.test'), 'john.smith@example.test');
    assert.equal(keyOf('to:=δοκιμή@παράδειγμα.δοκιμή'), 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp');
    assert.deepEqual(parseQuery('-to:=a@x.test OR cc:=b@x.test'), {
      kind: 'or', children: [{ kind: 'not', child: { kind: 'address', fields: ['to', 'cc', 'bcc'], key: 'a@x.test' } }, { kind: 'address', fields: ['cc'], key: 'b@x.test' }],
    });
  });

  it('leave a quoted value that starts with = to substring search', () => {
    assert.deepEqual(parseQuery('to:"=alice"'), { kind: 'text', fields: ['recipients'], needle: '=alice' });
  });

  it('refuse what is no address, naming the term, and = after an operator that does not read addresses', () => {
    invalid('to:=', /'to:=' needs an address after '='/);
    invalid('to:=alice', /'alice' has no exact form: it is not an address/);
    invalid('from:=@x.test', /not an address/);
    invalid(`to:=${'a'.repeat(1000)}@x.test`, /longer than 512 characters/);
    invalid('to:=a\u0000b@x.test', /control character/);
    invalid('subject:=hello', /'=' \(an exact address\) follows only from:, to:.*addressed:/);
    invalid('message-id:=<a@b>', /exact address/);
  });

  it('are not text terms, and a query holds at most QUERY_ADDRESS_TERMS of them', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `to:=u${i}@x.test`).join(' OR ');
    parseQuery(`${many(QUERY_ADDRESS_TERMS)} ${Array.from({ length: 16 }, (_, i) => `word${i}`).join(' ')}`);
    assert.throws(() => parseQuery(many(QUERY_ADDRESS_TERMS + 1)), (error: unknown) => error instanceof AppError && error.code === 'invalid_query'
      && error.message.includes(`${QUERY_ADDRESS_TERMS + 1} exact-address terms; at most ${QUERY_ADDRESS_TERMS}`));
  });

  it('match exactly the messages that name the mailbox in the operator\'s lists, however it is spelled', () => {
    const mail = message({ to: ['alice@x.test'], cc: ['john smith@x.test'], envelopeFrom: ['bounce@x.test'], bcc: ['δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp'] });
    const selects = (query: string) => matches(parseQuery(query), mail);
    assert.ok(selects('to:=ALICE@X.TEST'));
    assert.ok(selects('to-header:=alice@x.test'));
    assert.ok(!selects('cc:=alice@x.test'));
    assert.ok(!selects('to:=ba@x.test') && !selects('to:=alice@x.test.evil') && !selects('to:=alice+tag@x.test') && !selects('to:=lice@x.test'));
    assert.ok(selects('to:="john smith"@x.test') && selects('cc:="John Smith"@X.test'));
    assert.ok(selects('from:=bounce@x.test') && !selects('reply-to:=bounce@x.test'));
    assert.ok(selects('bcc:=δοκιμή@παράδειγμα.δοκιμή') && selects('addressed:=ΔΟΚΙΜΉ@xn--hxajbheg2az3al.xn--jxalpdlp'));
    assert.ok(!selects('to:=\u0430lice@x.test'), 'a homograph is another mailbox');
    assert.ok(selects('-to:=bob@x.test'));
  });

  it('are written back as q reads them, the address in the form that keys to the same mailbox', () => {
    const written = (query: string) => queryTerms(parseQuery(query)).map((term) => term.text);
    assert.deepEqual(written('to:=Alice@Example.test from:=a@x.test to-header:=b@x.test cc:=c@x.test bcc:=d@x.test reply-to:=e@x.test addressed:=f@x.test'), [
      'to:=alice@example.test', 'from:=a@x.test', 'to-header:=b@x.test', 'cc:=c@x.test', 'bcc:=d@x.test', 'reply-to:=e@x.test', 'addressed:=f@x.test',
    ]);
    assert.deepEqual(written('to:="John Smith"@example.test -to:=δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp'), ['to:="john smith"@example.test', '-to:=δοκιμή@παράδειγμα.δοκιμή']);
    for (const text of written('to:="john smith"@example.test (cc:=a@x.test OR to:="a.b"@x.test)')) assert.deepEqual(queryTerms(parseQuery(text))[0]!.node, parseQuery(text));
  });

  it('compile to a lookup of the address in the scope on SQLite, or by each row\'s own keys in a walk', () => {
    const filter = parseQuery('to:=alice@x.test');
    assert.deepEqual(compileSql(filter, { workspaceId: 'ws_1', inboxId: 'inb_1' }), {
      where: 'm.seq IN (SELECT DISTINCT message_seq FROM message_addresses WHERE workspace_id = ? AND address = ? AND field IN (?, ?, ?) AND inbox_id = ?)',
      params: ['ws_1', 'alice@x.test', 'to', 'cc', 'bcc', 'inb_1'],
    });
    assert.deepEqual(compileSql(filter, { workspaceId: 'ws_1' }).params, ['ws_1', 'alice@x.test', 'to', 'cc', 'bcc'], 'a workspace-wide selection');
    assert.deepEqual(compileSql(parseQuery('from:=a@x.test'), { workspaceId: 'ws_1' }, { indexes: false }), {
      where: 'EXISTS (SELECT 1 FROM message_addresses a WHERE a.message_seq = m.seq AND a.field IN (?, ?) AND a.address = ?)',
      params: ['from', 'envelope_from', 'a@x.test'],
    });
    assert.equal(requiredAddressHits(parseQuery('to:=a@x.test -from:=b@x.test (cc:=c@x.test OR x)'), { workspaceId: 'ws_1' }).length, 1, 'only clauses every match needs');
    assert.equal(requiredAddresses(parseQuery('to:=a@x.test cc:=c@x.test')).length, 2);
  });

  it('compile to term queries on the address keyword fields on Elasticsearch, and count as lookups every match needs', () => {
    assert.deepEqual(compileEs(parseQuery('cc:=Carol@x.test')), { term: { 'addresses.cc': { value: 'carol@x.test' } } });
    assert.deepEqual(compileEs(parseQuery('from:=a@x.test')), { bool: {
      should: [{ term: { 'addresses.from': { value: 'a@x.test' } } }, { term: { 'addresses.envelope_from': { value: 'a@x.test' } } }], minimum_should_match: 1,
    } });
    assert.deepEqual(requiredLookupsEs(parseQuery('reply-to:=a@x.test is:read')), { bool: { filter: [{ term: { 'addresses.reply_to': { value: 'a@x.test' } } }] } });
    assert.equal(requiredLookupsEs(parseQuery('-to:=a@x.test')), null);
  });
});
