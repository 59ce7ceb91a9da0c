// CaptureStore contract (group commit of captured messages, and the allowance they are counted against), run against every backend.
import { strict as assert } from 'node:assert';
import type { CapturedMessage } from '../../src/storage/ports.js';
import { rawBlobKey } from '../../src/domain/blob-keys.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { matchAll } from '../../src/query/ast.js';
import { aMessage, insertOne, UNLIMITED } from './fixtures.js';

const captured = (workspaceId: string, charge = UNLIMITED): CapturedMessage => {
  const record = aMessage(workspaceId, 'inb_cap');
  const rawKey = rawBlobKey(workspaceId, record.id);
  return { record: { ...record, rawKey }, charge, blobs: [{ key: rawKey, data: Buffer.from(`raw of ${record.id}\r\n`) }] };
};

for (const factory of backendFactories) {
  describe(`CaptureStore contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    before(async () => {
      under = await factory.open();
    });
    after(() => under.dispose());

    it('stores a whole group: every document and every blob, outcomes in order', async () => {
      const group = Array.from({ length: 5 }, () => captured('ws_cap'));
      assert.deepEqual(await under.backend.captures.storeAll(group), ['stored', 'stored', 'stored', 'stored', 'stored']);
      for (const { record, blobs } of group) {
        assert.deepEqual(await under.backend.messages.get('ws_cap', record.id), record);
        assert.deepEqual(await under.backend.blobs.get(blobs[0]!.key), blobs[0]!.data);
      }
    });

    it('refuses only the messages past the allowance, storing the others of the same group, and leaves no blob of a refused one', async () => {
      const charge = { period: '2026-11', monthlyLimit: 2 };
      const group = Array.from({ length: 4 }, () => captured('ws_cap_quota', charge));
      assert.deepEqual(await under.backend.captures.storeAll(group), ['stored', 'stored', 'quota_reached', 'quota_reached']);
      assert.equal(await under.backend.captures.quotaUsed('ws_cap_quota', '2026-11'), 2);
      assert.equal(await under.backend.messages.get('ws_cap_quota', group[2]!.record.id), null);
      assert.notEqual(await under.backend.messages.get('ws_cap_quota', group[1]!.record.id), null);
      // The store owns what it wrote: the caller removes nothing (test/contract/capture-failures.test.ts).
      assert.equal(await under.backend.blobs.get(group[2]!.blobs[0]!.key), null, 'a refused message leaves no blob');
      assert.deepEqual(await under.backend.blobs.get(group[1]!.blobs[0]!.key), group[1]!.blobs[0]!.data);
    });

    it('counts a message against the allowance exactly when it stores it, also under concurrency', async () => {
      const charge = { period: '2026-11', monthlyLimit: 5 };
      const results = await Promise.all(Array.from({ length: 20 }, () => insertOne(under.backend.captures, aMessage('ws_quota', 'inb_quota'), charge)));
      assert.equal(results.filter(Boolean).length, 5);
      assert.equal((await under.backend.messages.list('ws_quota', 'inb_quota', { filter: matchAll(), limit: 100, after: null })).records.length, 5, 'refused messages are not stored');
      assert.equal(await under.backend.captures.quotaUsed('ws_quota', '2026-11'), 5);
      assert.equal(await under.backend.captures.quotaUsed('ws_quota', '2026-12'), 0, 'periods are separate');
      assert.equal(await insertOne(under.backend.captures, aMessage('ws_quota', 'inb_quota'), { period: '2026-12', monthlyLimit: null }), true, 'null is unlimited');
      assert.equal(await insertOne(under.backend.captures, aMessage('ws_zero', 'inb_zero'), { period: '2026-12', monthlyLimit: 0 }), false, 'a zero allowance stores nothing');
      await under.backend.messages.change({ workspaceId: 'ws_quota', inboxId: 'inb_quota' }, { kind: 'delete' });
      assert.equal(await under.backend.captures.quotaUsed('ws_quota', '2026-11'), 5, 'deleting does not give the allowance back');
    });

    it('fails one message alone: a duplicate id is refused and the rest of its group is stored', async () => {
      const first = captured('ws_cap_dup');
      await under.backend.captures.storeAll([first]);
      const again = { ...first, blobs: first.blobs };
      const fresh = captured('ws_cap_dup');
      const [duplicate, stored] = await under.backend.captures.storeAll([again, fresh]);
      assert.ok(duplicate instanceof Error, `a second message with the same id is refused, got ${String(duplicate)}`);
      assert.deepEqual(await under.backend.blobs.get(first.blobs[0]!.key), first.blobs[0]!.data, 'the message with that id keeps its raw');
      assert.equal(stored, 'stored');
      assert.deepEqual(await under.backend.messages.get('ws_cap_dup', fresh.record.id), fresh.record);
    });
  });
}
