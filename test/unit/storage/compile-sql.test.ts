// The SQLite plan of the header operators: each is decided on its own column and narrowed by a trigram index column.
import { strict as assert } from 'node:assert';
import { compileSql, requiredPhrases } from '../../../src/storage/embedded/compile-sql.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { parseMailpitSearch } from '../../../src/query/mailpit-search.js';

const SCOPE = { workspaceId: 'ws_1', inboxId: 'inb_1' };

describe('compileSql for the header operators', () => {
  it('narrows To, Cc and Bcc by the recipients index column, Reply-To and Message-ID by their own', () => {
    assert.deepEqual(requiredPhrases(parseQuery('to-header:bob cc:carol bcc:dan')), [
      '{search_recipients} : ("bob")', '{search_recipients} : ("car" AND "rol")', '{search_recipients} : ("dan")',
    ]);
    assert.deepEqual(requiredPhrases(parseQuery('reply-to:help message-id:abc')), ['{search_reply_to} : ("hel" AND "elp")', '{search_message_id} : ("abc")']);
    assert.deepEqual(requiredPhrases(parseQuery('addressed:eve')), ['{search_sender search_recipients search_reply_to} : ("eve")']);
    assert.deepEqual(requiredPhrases(parseQuery('word')), ['{search_subject search_sender search_recipients search_body} : ("wor" AND "ord")']);
  });

  it('decides each header on its own column', () => {
    assert.match(compileSql(parseQuery('to-header:bob'), SCOPE, { indexes: false }).where, /^\(instr\(m\.search_to, \?\) > 0\)$/);
    assert.equal(compileSql(parseQuery('has:inline'), SCOPE).where, 'm.inline_count > 0');
  });

  it('gives Mailpit\'s spelling the plan of q\'s', () => {
    assert.deepEqual(compileSql(parseMailpitSearch('to:bob -addressed:eve has:inlines larger:1k'), SCOPE), compileSql(parseQuery('to-header:bob -addressed:eve has:inline larger:1k'), SCOPE));
  });
});
