// The q → Elasticsearch compiler: which query carries each clause, constant folding, and the nesting-depth bound.
// Exact agreement with the matcher on real data is the cluster run of test/contract/query-agreement.test.ts.
import { strict as assert } from 'node:assert';
import { compileEs } from '../../../src/storage/cluster/compile-es.js';
import type { QueryNode } from '../../../src/query/ast.js';

/** The client's query DSL type; tests may not import the Elasticsearch client themselves. */
type EsQuery = ReturnType<typeof compileEs>;

const text = (needle: string, fields: ('subject' | 'sender' | 'recipients' | 'body')[] = ['subject']): QueryNode => ({ kind: 'text', fields, needle });
const tag = (name: string): QueryNode => ({ kind: 'tag', name });

/** Compound levels Elasticsearch counts while parsing, with wrapper contents parsed on their own. */
function depth(query: EsQuery): { outer: number; deepestInner: number } {
  const { bool, wrapper } = query;
  if (bool) {
    // The DSL takes one clause or a list of them.
    const children = [bool.filter, bool.should, bool.must_not].flatMap((clauses) => clauses ?? []).map(depth);
    return { outer: 1 + Math.max(0, ...children.map((c) => c.outer)), deepestInner: Math.max(0, ...children.map((c) => c.deepestInner)) };
  }
  if (wrapper) {
    const inner = depth(JSON.parse(Buffer.from(wrapper.query, 'base64').toString()) as EsQuery);
    return { outer: 0, deepestInner: Math.max(inner.outer, inner.deepestInner) };
  }
  return { outer: 0, deepestInner: 0 };
}

describe('compileEs', () => {
  it('looks for needles of three or more code points as a trigram phrase, shorter ones as a trigram prefix', () => {
    assert.deepEqual(compileEs(text('abc')), { match_phrase: { search_subject: { query: 'abc' } } });
    assert.deepEqual(compileEs(text('a b')), { match_phrase: { search_subject: { query: 'a b' } } });
    assert.deepEqual(compileEs(text('ab', ['body'])), { prefix: { search_body: { value: 'ab' } } });
    assert.deepEqual(compileEs(text('😀b')), { prefix: { search_subject: { value: '😀b' } } }, 'two code points, three UTF-16 units');
    assert.deepEqual(compileEs(text('a😀b')), { match_phrase: { search_subject: { query: 'a😀b' } } });
  });

  it('ORs the fields of one text clause', () => {
    assert.deepEqual(compileEs(text('x', ['sender', 'recipients'])), { bool: {
      should: [{ prefix: { search_sender: { value: 'x' } } }, { prefix: { search_recipients: { value: 'x' } } }], minimum_should_match: 1,
    } });
  });

  it('folds constants as the matcher evaluates them', () => {
    assert.deepEqual(compileEs({ kind: 'and', children: [] }), { match_all: {} });
    assert.deepEqual(compileEs({ kind: 'or', children: [] }), { match_none: {} });
    assert.deepEqual(compileEs({ kind: 'not', child: { kind: 'or', children: [] } }), { match_all: {} });
    assert.deepEqual(compileEs({ kind: 'and', children: [tag('a'), { kind: 'or', children: [] }] }), { match_none: {} });
    assert.deepEqual(compileEs({ kind: 'or', children: [tag('a'), { kind: 'and', children: [] }] }), { match_all: {} });
    assert.deepEqual(compileEs(text('')), { match_all: {} }, 'every string contains the empty one');
    assert.deepEqual(compileEs(text('abc', [])), { match_none: {} }, 'no field, no match');
    assert.deepEqual(compileEs({ kind: 'not', child: { kind: 'not', child: tag('a') } }), { term: { tags: { value: 'a' } } });
  });

  it('puts negated children of an AND in its must_not and counts identical clauses once', () => {
    assert.deepEqual(compileEs({ kind: 'and', children: [tag('a'), { kind: 'not', child: tag('b') }, tag('a'), { kind: 'not', child: tag('b') }] }), {
      bool: { filter: [{ term: { tags: { value: 'a' } } }], must_not: [{ term: { tags: { value: 'b' } } }] },
    });
    assert.deepEqual(compileEs({ kind: 'and', children: Array.from({ length: 1000 }, () => text('a')) }), { prefix: { search_subject: { value: 'a' } } });
  });

  it('compares whole-byte sizes strictly, with bounds beyond any size folded', () => {
    assert.deepEqual(compileEs({ kind: 'size', op: 'gt', bytes: 2560 }), { range: { size: { gte: 2561 } } });
    assert.deepEqual(compileEs({ kind: 'size', op: 'gt', bytes: 999.5 }), { range: { size: { gte: 1000 } } });
    assert.deepEqual(compileEs({ kind: 'size', op: 'lt', bytes: 999.5 }), { range: { size: { lte: 999 } } });
    assert.deepEqual(compileEs({ kind: 'size', op: 'lt', bytes: 1000 }), { range: { size: { lte: 999 } } });
    assert.deepEqual(compileEs({ kind: 'size', op: 'gt', bytes: Infinity }), { match_none: {} });
    assert.deepEqual(compileEs({ kind: 'size', op: 'lt', bytes: 1e30 }), { match_all: {} });
  });

  it('compares received_at in epoch milliseconds', () => {
    const at = new Date('2026-11-20T12:00:00.001Z');
    assert.deepEqual(compileEs({ kind: 'received', op: 'gte', at }), { range: { received_at: { gte: at.getTime(), format: 'epoch_millis' } } });
    assert.deepEqual(compileEs({ kind: 'received', op: 'lt', at }), { range: { received_at: { lt: at.getTime(), format: 'epoch_millis' } } });
  });

  it('keeps every nesting level within what Elasticsearch parses, however deep the q groups go', () => {
    let node: QueryNode = tag('x');
    for (let i = 0; i < 200; i++) node = i % 2 ? { kind: 'and', children: [tag(`a${i}`), { kind: 'not', child: node }] } : { kind: 'or', children: [tag(`o${i}`), node] };
    const { outer, deepestInner } = depth(compileEs(node));
    assert.ok(outer <= 20 && deepestInner <= 20, `outer ${outer}, inner ${deepestInner}`);
    assert.match(JSON.stringify(compileEs(node)), /"wrapper"/);
  });

  it('searches each header on its own field, addressed: on all of them, and has:inline on the inline count', () => {
    assert.deepEqual(compileEs({ kind: 'text', fields: ['to'], needle: 'bob' }), { match_phrase: { search_to: { query: 'bob' } } });
    assert.deepEqual(compileEs({ kind: 'text', fields: ['messageId'], needle: 'x' }), { prefix: { search_message_id: { value: 'x' } } });
    const addressed = compileEs({ kind: 'text', fields: ['sender', 'to', 'cc', 'bcc', 'replyTo'], needle: 'eve' });
    assert.deepEqual(addressed.bool?.should, ['search_sender', 'search_to', 'search_cc', 'search_bcc', 'search_reply_to'].map((field) => ({ match_phrase: { [field]: { query: 'eve' } } })));
    assert.deepEqual(compileEs({ kind: 'has_inline' }), { range: { inline_count: { gt: 0 } } });
  });
});
