// What a change to messages announces: the inbox and the messages where the change knows them, `cleared` for an
// emptied inbox, and `pruned` where it cannot say which messages changed.
import { strict as assert } from 'node:assert';
import { announcementsOf, announcingChanges, MAX_ANNOUNCED_IDS } from '../../src/services/realtime/change-announcements.js';
import type { BusEvent, ChangeResult, MessageChange, MessageIndex, MessageSelection } from '../../src/storage/ports.js';

const WS = 'ws_1';
const result = (deletedIds: string[] = [], affected = Math.max(1, deletedIds.length)): ChangeResult => ({ affected, deletedIds });
const changes = (selection: Omit<MessageSelection, 'workspaceId'>, change: MessageChange, changed = result(), inboxOf: Map<string, string> | null = null) =>
  announcementsOf({ workspaceId: WS, ...selection }, change, changed, inboxOf).map(({ inboxId, change: announced }) => ({ inboxId, ...announced }));

describe('announcementsOf', () => {
  it('names the messages of a change by ids within an inbox, and the deleted ones of any deletion there', () => {
    assert.deepEqual(changes({ inboxId: 'inb_1', ids: ['m1', 'm2'] }, { kind: 'read', value: true }), [{ inboxId: 'inb_1', kind: 'read', value: true, messageIds: ['m1', 'm2'] }]);
    assert.deepEqual(changes({ inboxId: 'inb_1', ids: ['m1'] }, { kind: 'add_tags', tags: ['x'] }), [{ inboxId: 'inb_1', kind: 'tagged', messageIds: ['m1'] }]);
    assert.deepEqual(changes({ inboxId: 'inb_1', filter: { kind: 'read', value: true } }, { kind: 'delete' }, result(['m3'])), [{ inboxId: 'inb_1', kind: 'deleted', messageIds: ['m3'] }]);
  });

  it('announces an emptied inbox as cleared, and a change it cannot name the messages of as pruned', () => {
    assert.deepEqual(changes({ inboxId: 'inb_1' }, { kind: 'delete' }, result(['m1', 'm2'])), [{ inboxId: 'inb_1', kind: 'cleared' }]);
    assert.deepEqual(changes({ inboxId: 'inb_1' }, { kind: 'read', value: true }), [{ inboxId: 'inb_1', kind: 'pruned' }], 'all of an inbox marked read');
    // With a query as well, some listed messages may not have matched: their state is not known to have changed.
    assert.deepEqual(changes({ inboxId: 'inb_1', ids: ['m1'], filter: { kind: 'read', value: false } }, { kind: 'read', value: true }), [{ inboxId: 'inb_1', kind: 'pruned' }]);
    const many = Array.from({ length: MAX_ANNOUNCED_IDS + 1 }, (_, n) => `m${n}`);
    assert.deepEqual(changes({ inboxId: 'inb_1', ids: many }, { kind: 'read', value: false }), [{ inboxId: 'inb_1', kind: 'pruned' }]);
  });

  it('groups listed messages of an unnamed inbox by the inbox each was in, and prunes the workspace otherwise', () => {
    const inboxOf = new Map([['m1', 'inb_1'], ['m2', 'inb_2'], ['m3', 'inb_1']]);
    assert.deepEqual(changes({ ids: ['m1', 'm2', 'm3', 'gone'] }, { kind: 'delete' }, result(['m1', 'm2', 'm3']), inboxOf), [
      { inboxId: 'inb_1', kind: 'deleted', messageIds: ['m1', 'm3'] },
      { inboxId: 'inb_2', kind: 'deleted', messageIds: ['m2'] },
    ]);
    assert.deepEqual(changes({ filter: { kind: 'read', value: true } }, { kind: 'delete' }, result(['m1'])), [{ inboxId: null, kind: 'pruned' }], 'retention: a query over the workspace');
  });

  it('announces through the index a change that altered something, and a renamed tag as pruned over the workspace', async () => {
    const published: BusEvent[] = [];
    const index = {
      getMany: async () => [{ id: 'm1', inboxId: 'inb_1' }],
      change: async (_selection: MessageSelection, change: MessageChange) => result(change.kind === 'delete' ? ['m1'] : [], change.kind === 'delete' ? 1 : 0),
      renameTag: async () => 3,
      latestArrival: async () => 7,
    } as unknown as MessageIndex;
    const announced = announcingChanges(index, { publish: async (event) => void published.push(event) }, (error) => assert.fail(String(error)));
    await announced.change({ workspaceId: WS, ids: ['m1'] }, { kind: 'read', value: true });
    assert.equal(published.length, 0, 'a change that altered nothing is not announced');
    await announced.change({ workspaceId: WS, ids: ['m1'] }, { kind: 'delete' });
    await announced.renameTag(WS, 'a', 'b');
    assert.equal(await announced.latestArrival(WS, 'inb_1'), 7, 'every other method is the index\'s own');
    assert.deepEqual(published.map((event) => event.type === 'messages.changed' && [event.inboxId, event.change.kind]), [['inb_1', 'deleted'], [null, 'pruned']]);
  });
});
