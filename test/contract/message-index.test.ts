// MessageIndex contract, run against every backend.
import { strict as assert } from 'node:assert';
import type { MessageIndex } from '../../src/storage/ports.js';
import { matchAll, type QueryNode } from '../../src/query/ast.js';
import { cutShortSentence } from '../../src/domain/analysis-outcome.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { headerKeysOf, insertOne, aMessage, UNLIMITED } from './fixtures.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { searchFields } from '../../src/domain/search-text.js';
import type { MessageRecord } from '../../src/domain/types.js';

for (const factory of backendFactories) {
  describe(`MessageIndex contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let index: MessageIndex;
    before(async () => {
      under = await factory.open();
      index = under.backend.messages;
    });
    after(() => under.dispose());

    it('returns exactly what was inserted, only to its workspace', async () => {
      const message = aMessage('ws_a', 'inb_a', { recipients: ['x@y.test'], tags: ['t1'], parseError: 'broken', tls: true, read: true, cc: 'c@d.test', snippet: 'Your sign-in code is 482 913. It expires in ten minutes…' });
      await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual(await index.get('ws_a', message.id), message);
      assert.equal(await index.get('ws_b', message.id), null);
    });

    it('gives back whether the analysis at capture was cut short, and its sentence as written', async () => {
      const cutShort = aMessage('ws_a', 'inb_a', { parseError: `${cutShortSentence('stopped after 5 s (the limit per message)')}; parts may be missing`, analysisCutShort: true });
      const malformed = aMessage('ws_a', 'inb_a', { parseError: 'not parseable as MIME: bad boundary' });
      for (const message of [cutShort, malformed]) await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual(await index.get('ws_a', cutShort.id), cutShort);
      assert.deepEqual(await index.get('ws_a', malformed.id), malformed);
    });

    it('lists newest first, breaking time ties by id, and pages from a position', async () => {
      const at = new Date('2026-11-20T12:00:00Z');
      const inserted = [
        aMessage('ws_l', 'inb_l', { receivedAt: new Date(at.getTime() - 1000) }),
        aMessage('ws_l', 'inb_l', { receivedAt: at, id: 'msg_b' }),
        aMessage('ws_l', 'inb_l', { receivedAt: at, id: 'msg_c' }),
        aMessage('ws_l', 'inb_l', { receivedAt: new Date(at.getTime() + 1000) }),
        aMessage('ws_l', 'inb_other', { receivedAt: at }),
      ];
      for (const message of inserted) await insertOne(under.backend.captures, message, UNLIMITED);
      const all = (await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 10, after: null })).records;
      assert.deepEqual(all.map((m) => m.id), [inserted[3]!.id, 'msg_c', 'msg_b', inserted[0]!.id]);
      const rest = (await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 10, after: { receivedAt: at, id: 'msg_c' } })).records;
      assert.deepEqual(rest.map((m) => m.id), ['msg_b', inserted[0]!.id]);
      assert.equal((await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 2, after: null })).records.length, 2);
    });

    it('counts and deletes per inbox, returning the ids', async () => {
      const messages = [aMessage('ws_d', 'inb_1'), aMessage('ws_d', 'inb_1'), aMessage('ws_d', 'inb_2')];
      for (const message of messages) await insertOne(under.backend.captures, message, UNLIMITED);
      const counts = await index.countByInbox('ws_d', ['inb_1', 'inb_2', 'inb_none']);
      assert.deepEqual([...counts.entries()].sort(), [['inb_1', { messages: 2, unread: 2 }], ['inb_2', { messages: 1, unread: 1 }], ['inb_none', { messages: 0, unread: 0 }]]);
      const deleted = await index.change({ workspaceId: 'ws_d', inboxId: 'inb_1' }, { kind: 'delete' });
      assert.deepEqual({ ...deleted, deletedIds: deleted.deletedIds.sort() }, { affected: 2, deletedIds: [messages[0]!.id, messages[1]!.id].sort() });
      assert.deepEqual((await index.countByInbox('ws_d', ['inb_1'])).get('inb_1'), { messages: 0, unread: 0 });
      assert.deepEqual((await index.countByInbox('ws_d', ['inb_2'])).get('inb_2'), { messages: 1, unread: 1 });
      assert.deepEqual(await index.change({ workspaceId: 'ws_other', inboxId: 'inb_2' }, { kind: 'delete' }), { affected: 0, deletedIds: [] }, 'another workspace deletes nothing');
    });

    it('counts the messages of one inbox a filter selects, and the unread among them, and tags per inbox', async () => {
      const subject = (text: string) => ({ subject: text, search: { ...aMessage('w', 'i').search, subject: text } });
      const messages = [
        aMessage('ws_q', 'inb_q', { ...subject('invoice 1'), tags: ['paid'] }),
        aMessage('ws_q', 'inb_q', { ...subject('invoice 2'), read: true }),
        aMessage('ws_q', 'inb_q', subject('welcome')),
        aMessage('ws_q', 'inb_other', { ...subject('invoice 3'), tags: ['paid', 'late'] }),
        aMessage('ws_other', 'inb_q', subject('invoice 4')),
      ];
      for (const message of messages) await insertOne(under.backend.captures, message, UNLIMITED);
      const invoices: QueryNode = { kind: 'text', fields: ['subject'], needle: 'invoice' };
      assert.deepEqual(await index.count('ws_q', 'inb_q', invoices), { messages: 2, unread: 1 });
      assert.deepEqual(await index.count('ws_q', 'inb_q', matchAll()), { messages: 3, unread: 2 });
      assert.deepEqual(await index.count('ws_q', 'inb_none', matchAll()), { messages: 0, unread: 0 });
      assert.deepEqual(Object.fromEntries(await index.tagCounts('ws_q', 'inb_q')), { paid: 1 });
      assert.deepEqual(Object.fromEntries(await index.tagCounts('ws_q')), { paid: 2, late: 1 });
    });

    it('tells which of some ids exist in a workspace', async () => {
      const message = aMessage('ws_e', 'inb_e');
      await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual([...await index.existingIds('ws_e', [message.id, 'msg_absent'])], [message.id]);
      assert.equal((await index.existingIds('ws_other', [message.id])).size, 0);
      assert.equal((await index.existingIds('ws_e', [])).size, 0);
    });

    it('changes read state and counts only messages that changed', async () => {
      const [a, b, c] = [aMessage('ws_r', 'inb_r'), aMessage('ws_r', 'inb_r', { read: true }), aMessage('ws_r', 'inb_other')];
      for (const message of [a, b, c]) await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual(await index.change({ workspaceId: 'ws_r', inboxId: 'inb_r', filter: matchAll() }, { kind: 'read', value: true }), { affected: 1, deletedIds: [] });
      assert.equal((await index.get('ws_r', a.id))!.read, true);
      assert.equal((await index.get('ws_r', c.id))!.read, false, 'the inbox scope holds');
      assert.deepEqual((await index.countByInbox('ws_r', ['inb_r'])).get('inb_r'), { messages: 2, unread: 0 }, 'the unread count follows read changes');
      assert.equal((await index.change({ workspaceId: 'ws_r', ids: [a.id, b.id, c.id] }, { kind: 'read', value: false })).affected, 2);
      assert.deepEqual((await index.countByInbox('ws_r', ['inb_r', 'inb_other'])).get('inb_r'), { messages: 2, unread: 2 });
      assert.equal((await index.change({ workspaceId: 'ws_other', ids: [a.id] }, { kind: 'read', value: true })).affected, 0, 'another workspace changes nothing');
    });

    it('narrows ids by a filter when both are given', async () => {
      const [a, b] = [aMessage('ws_n', 'inb_n', { subject: 'keep', search: { ...aMessage('w', 'i').search, subject: 'keep' } }), aMessage('ws_n', 'inb_n')];
      for (const message of [a, b]) await insertOne(under.backend.captures, message, UNLIMITED);
      const result = await index.change({ workspaceId: 'ws_n', ids: [a.id, b.id], filter: { kind: 'text', fields: ['subject'], needle: 'keep' } }, { kind: 'delete' });
      assert.deepEqual(result, { affected: 1, deletedIds: [a.id] });
      assert.equal(await index.get('ws_n', a.id), null);
      assert.ok(await index.get('ws_n', b.id));
    });

    it('adds, removes and sets tags, counting messages whose tags changed', async () => {
      const [a, b] = [aMessage('ws_t', 'inb_t', { tags: ['old'] }), aMessage('ws_t', 'inb_t')];
      for (const message of [a, b]) await insertOne(under.backend.captures, message, UNLIMITED);
      const all = { workspaceId: 'ws_t', ids: [a.id, b.id] };
      assert.equal((await index.change(all, { kind: 'add_tags', tags: ['old'] })).affected, 1);
      assert.equal((await index.change(all, { kind: 'add_tags', tags: ['new', 'old'] })).affected, 2);
      assert.deepEqual((await index.get('ws_t', a.id))!.tags, ['new', 'old']);
      assert.deepEqual(Object.fromEntries(await index.tagCounts('ws_t')), { new: 2, old: 2 });
      assert.equal((await index.change({ workspaceId: 'ws_t', ids: [a.id] }, { kind: 'remove_tags', tags: ['old', 'absent'] })).affected, 1);
      assert.equal((await index.change(all, { kind: 'set_tags', tags: ['new'] })).affected, 1, 'only b still had old');
      assert.deepEqual((await index.get('ws_t', b.id))!.tags, ['new']);
      assert.equal((await index.change(all, { kind: 'set_tags', tags: ['new'] })).affected, 0);
    });

    it('renames a tag everywhere, merging into an existing one', async () => {
      const [a, b] = [aMessage('ws_m', 'inb_m', { tags: ['x', 'y'] }), aMessage('ws_m', 'inb_m', { tags: ['x'] })];
      for (const message of [a, b]) await insertOne(under.backend.captures, message, UNLIMITED);
      await index.renameTag('ws_m', 'x', 'y');
      assert.deepEqual((await index.get('ws_m', a.id))!.tags, ['y']);
      assert.deepEqual((await index.get('ws_m', b.id))!.tags, ['y']);
      assert.deepEqual(Object.fromEntries(await index.tagCounts('ws_m')), { y: 2 });
      await index.renameTag('ws_m', 'y', 'y');
      assert.deepEqual(Object.fromEntries(await index.tagCounts('ws_m')), { y: 2 }, 'renaming onto itself keeps the tag');
    });

    it('finds messages by exact address within the workspace and inbox asked, and keeps their keys as stored', async () => {
      const named = (workspaceId: string, inboxId: string, to: string[], overrides: Partial<MessageRecord> = {}) => {
        const base = aMessage(workspaceId, inboxId, { to: to.join(', '), recipients: to, ...overrides });
        return { ...base, search: searchFields({ ...base, bcc: '', replyTo: '', headerAddresses: headerKeysOf(base) }, '') };
      };
      const mine = named('ws_exact', 'inb_1', ['Alice@Example.TEST', '"john smith"@example.test']);
      const other = named('ws_exact', 'inb_1', ['ba@example.test', 'alice@example.test.evil', 'alice+tag@example.test']);
      const elsewhere = named('ws_exact', 'inb_2', ['alice@example.test']);
      const stranger = named('ws_stranger', 'inb_1', ['alice@example.test']);
      for (const message of [mine, other, elsewhere, stranger]) await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual((await index.get('ws_exact', mine.id))?.search.addresses, mine.search.addresses);
      assert.deepEqual(mine.search.addresses.to, ['alice@example.test', 'john smith@example.test']);
      const listed = async (q: string, inboxId = 'inb_1') => (await index.list('ws_exact', inboxId, { filter: parseQuery(q), limit: 10, after: null })).records.map((m) => m.id);
      assert.deepEqual(await listed('to:=alice@example.test'), [mine.id]);
      assert.deepEqual(await listed('to:="John Smith"@EXAMPLE.test'), [mine.id]);
      assert.deepEqual((await listed('to:alice@example.test')).sort(), [mine.id, other.id].sort(), 'substring search still finds both');
      assert.deepEqual(await listed('-to:=alice@example.test'), [other.id]);
      assert.deepEqual(await listed('to:=alice@example.test', 'inb_2'), [elsewhere.id]);
      assert.deepEqual(await index.count('ws_exact', 'inb_1', parseQuery('to:=ALICE@example.test')), { messages: 1, unread: 1 });
      const changed = await index.change({ workspaceId: 'ws_exact', filter: parseQuery('to:=alice@example.test') }, { kind: 'read', value: true });
      assert.equal(changed.affected, 2, 'a workspace-wide change reaches both of its inboxes, and no other workspace');
      assert.equal((await index.get('ws_stranger', stranger.id))?.read, false);
      const rebuilt = named('ws_exact', 'inb_1', ['carol@example.test'], { id: mine.id, receivedAt: mine.receivedAt });
      await index.restore(rebuilt);
      assert.deepEqual(await listed('to:=alice@example.test'), [], 'a rebuilt message keeps no address of its old document');
      assert.deepEqual(await listed('to:=carol@example.test'), [mine.id]);
    });

    it('restores rebuilt documents in place, charging nothing', async () => {
      const charge = { period: '2026-11', monthlyLimit: 1 };
      const original = aMessage('ws_restore', 'inb_restore');
      assert.equal(await insertOne(under.backend.captures, original, charge), true);
      const rebuilt = { ...original, read: true, tags: ['kept'], subject: 'rebuilt', search: { ...original.search, subject: 'rebuilt' } };
      await index.restore(rebuilt);
      assert.deepEqual(await index.get('ws_restore', original.id), rebuilt);
      const missing = aMessage('ws_restore', 'inb_restore');
      await index.restore(missing);
      assert.deepEqual(await index.get('ws_restore', missing.id), missing, 'a document the index lost comes back although the allowance is used up');
      const found = (await index.list('ws_restore', 'inb_restore', { filter: { kind: 'text', fields: ['subject'], needle: 'rebuilt' }, limit: 10, after: null })).records;
      assert.deepEqual(found.map((m) => m.id), [original.id], 'search sees the rebuilt text, once');
      assert.equal(await under.backend.captures.quotaUsed('ws_restore', '2026-11'), 1);
    });
  });
}
