// MessageIndex contract, run against every backend.
import { strict as assert } from 'node:assert';
import type { MessageIndex } from '../../src/storage/ports.js';
import { matchAll } from '../../src/query/ast.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { aMessage } from './fixtures.js';

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
      const message = aMessage('ws_a', 'inb_a', { recipients: ['x@y.test'], tags: ['t1'], parseError: 'broken', tls: true, read: true, cc: 'c@d.test' });
      await index.insert(message);
      assert.deepEqual(await index.get('ws_a', message.id), message);
      assert.equal(await index.get('ws_b', message.id), null);
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
      for (const message of inserted) await index.insert(message);
      const all = await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 10, after: null });
      assert.deepEqual(all.map((m) => m.id), [inserted[3]!.id, 'msg_c', 'msg_b', inserted[0]!.id]);
      const rest = await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 10, after: { receivedAt: at, id: 'msg_c' } });
      assert.deepEqual(rest.map((m) => m.id), ['msg_b', inserted[0]!.id]);
      assert.equal((await index.list('ws_l', 'inb_l', { filter: matchAll(), limit: 2, after: null })).length, 2);
    });

    it('counts and deletes per inbox, returning the raw keys', async () => {
      const messages = [aMessage('ws_d', 'inb_1'), aMessage('ws_d', 'inb_1'), aMessage('ws_d', 'inb_2')];
      for (const message of messages) await index.insert(message);
      const counts = await index.countByInbox('ws_d', ['inb_1', 'inb_2', 'inb_none']);
      assert.deepEqual([...counts.entries()].sort(), [['inb_1', 2], ['inb_2', 1], ['inb_none', 0]]);
      assert.deepEqual((await index.deleteByInbox('ws_d', 'inb_1')).sort(), [messages[0]!.rawKey, messages[1]!.rawKey].sort());
      assert.equal((await index.countByInbox('ws_d', ['inb_1'])).get('inb_1'), 0);
      assert.equal((await index.countByInbox('ws_d', ['inb_2'])).get('inb_2'), 1);
      assert.deepEqual(await index.deleteByInbox('ws_other', 'inb_2'), [], 'another workspace deletes nothing');
    });
  });
}
