// The arrival log every MessageIndex keeps per inbox (what event streams resume from), run against every backend.
import { strict as assert } from 'node:assert';
import type { MessageIndex } from '../../src/storage/ports.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { insertOne, aMessage, UNLIMITED } from './fixtures.js';

/** Small enough that a test fills it. */
const LOG_LENGTH = 5;

for (const factory of backendFactories) {
  describe(`MessageIndex arrival log (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let index: MessageIndex;
    before(async () => {
      under = await factory.open({ SANDBOX_STREAM_RESUME_LIMIT: String(LOG_LENGTH) });
      index = under.backend.messages;
    });
    after(() => under.dispose());

    const seqs = async (workspaceId: string, inboxId: string, after = 0) => (await index.arrivalsAfter(workspaceId, inboxId, after, 100)).arrivals;

    it('numbers each inbox\'s stored messages 1, 2, 3... in insert order', async () => {
      assert.equal(await index.latestArrival('ws_n', 'inb_n1'), 0, 'nothing has arrived yet');
      const first = [aMessage('ws_n', 'inb_n1'), aMessage('ws_n', 'inb_n1'), aMessage('ws_n', 'inb_n1')];
      const other = aMessage('ws_n', 'inb_n2');
      await insertOne(under.backend.captures, first[0]!, UNLIMITED);
      await insertOne(under.backend.captures, other, UNLIMITED);
      await insertOne(under.backend.captures, first[1]!, UNLIMITED);
      await insertOne(under.backend.captures, first[2]!, UNLIMITED);
      assert.deepEqual(await seqs('ws_n', 'inb_n1'), first.map((m, i) => ({ seq: i + 1, messageId: m.id })));
      assert.deepEqual(await seqs('ws_n', 'inb_n2'), [{ seq: 1, messageId: other.id }], 'every inbox counts from 1');
      assert.equal(await index.latestArrival('ws_n', 'inb_n1'), 3);
      assert.deepEqual(await index.arrivalsAfter('ws_n', 'inb_n1', 1, 1), { arrivals: [{ seq: 2, messageId: first[1]!.id }], complete: true });
      assert.deepEqual(await index.arrivalsAfter('ws_n', 'inb_n1', 3, 10), { arrivals: [], complete: true }, 'nothing after the newest');
    });

    it('logs only messages that were stored: not a refused insert, not a restore', async () => {
      const stored = aMessage('ws_r', 'inb_r');
      await insertOne(under.backend.captures, stored, { period: '2026-11', monthlyLimit: 1 });
      assert.equal(await insertOne(under.backend.captures, aMessage('ws_r', 'inb_r'), { period: '2026-11', monthlyLimit: 1 }), false, 'over the allowance');
      await index.restore(aMessage('ws_r', 'inb_r'));
      await index.restore({ ...stored, read: true });
      assert.deepEqual(await seqs('ws_r', 'inb_r'), [{ seq: 1, messageId: stored.id }]);
    });

    it('keeps the newest entries and tells a reader when the ones it asked for were trimmed', async () => {
      const messages = Array.from({ length: 8 }, () => aMessage('ws_t', 'inb_t'));
      for (const message of messages) await insertOne(under.backend.captures, message, UNLIMITED);
      assert.deepEqual((await seqs('ws_t', 'inb_t', 3)).map((a) => a.seq), [4, 5, 6, 7, 8], `the newest ${LOG_LENGTH}`);
      assert.equal((await index.arrivalsAfter('ws_t', 'inb_t', 3, 100)).complete, true, 'everything after 3 is kept');
      const trimmed = await index.arrivalsAfter('ws_t', 'inb_t', 1, 2);
      assert.equal(trimmed.complete, false, '2 and 3 are gone');
      assert.deepEqual(trimmed.arrivals.map((a) => a.messageId), [messages[3]!.id, messages[4]!.id], 'starting at the oldest kept');
      assert.equal(await index.latestArrival('ws_t', 'inb_t'), 8);
    });

    it('keeps the log when the inbox is cleared, and forgets it when asked (inbox deleted)', async () => {
      for (let i = 0; i < 2; i++) await insertOne(under.backend.captures, aMessage('ws_c', 'inb_c'), UNLIMITED);
      await index.change({ workspaceId: 'ws_c', inboxId: 'inb_c' }, { kind: 'delete' });
      const next = aMessage('ws_c', 'inb_c');
      await insertOne(under.backend.captures, next, UNLIMITED);
      assert.deepEqual((await seqs('ws_c', 'inb_c', 2)), [{ seq: 3, messageId: next.id }], 'numbering goes on after a clear');
      await index.dropArrivals('ws_c', 'inb_c');
      assert.equal(await index.latestArrival('ws_c', 'inb_c'), 0);
      assert.deepEqual(await seqs('ws_c', 'inb_c'), []);
    });

    it('fetches many messages at once, only of the workspace asked for', async () => {
      const messages = [aMessage('ws_g', 'inb_g', { tags: ['x'] }), aMessage('ws_g', 'inb_g2')];
      for (const message of messages) await insertOne(under.backend.captures, message, UNLIMITED);
      const found = await index.getMany('ws_g', [messages[1]!.id, 'msg_absent', messages[0]!.id]);
      assert.deepEqual(found.sort((a, b) => a.id.localeCompare(b.id)), [...messages].sort((a, b) => a.id.localeCompare(b.id)));
      assert.deepEqual(await index.getMany('ws_other', messages.map((m) => m.id)), []);
      assert.deepEqual(await index.getMany('ws_g', []), []);
    });
  });
}
