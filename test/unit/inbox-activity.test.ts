// The live activity of inboxes for Mailpit's event stream: changes reach the watches of their inbox and workspace
// only, counts follow a burst of changes once, and watches take places from the workspace's streams.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { InProcessBus } from '../../src/storage/embedded/in-process-bus.js';
import type { MessageIndex, MessagesChangedEvent } from '../../src/storage/ports.js';
import type { ArrivalListener, InboxFeeds } from '../../src/services/realtime/inbox-feeds.js';
import { InboxActivity, type ActivityItem } from '../../src/services/realtime/inbox-activity.js';
import { streamPlaces } from '../../src/services/realtime/inbox-event-streams.js';
import { pollUntil } from '../support/poll.js';

const feeds = { listen: async (_ws: string, _inbox: string, _listener: ArrivalListener) => () => undefined } as unknown as InboxFeeds;

function activity(perWorkspace = 10) {
  const bus = new InProcessBus();
  let counted = 0;
  const index = {
    countByInbox: async (_ws: string, ids: string[]) => {
      counted++;
      return new Map(ids.map((id) => [id, { messages: 2, unread: 1 }]));
    },
    getMany: async () => [],
  } as unknown as MessageIndex;
  const inboxes = { require: async () => ({}) as never };
  const service = new InboxActivity(feeds, bus, index, inboxes, streamPlaces(perWorkspace), { statsDelayMs: 20 }, (error) => {
    throw error;
  });
  return { bus, service, counts: () => counted };
}

const changed = (workspaceId: string, inboxId: string | null, change: MessagesChangedEvent['change']): MessagesChangedEvent => ({ type: 'messages.changed', workspaceId, inboxId, change });

describe('InboxActivity', () => {
  it('tells a change to the watches of its inbox, a workspace-wide one to every watch of that workspace, and nothing to another workspace', async () => {
    const { bus, service } = activity();
    await service.start();
    const heard = { a: [] as ActivityItem[], b: [] as ActivityItem[], stranger: [] as ActivityItem[] };
    await service.watch('ws_1', 'inb_a', (item) => heard.a.push(item));
    await service.watch('ws_1', 'inb_b', (item) => heard.b.push(item));
    await service.watch('ws_2', 'inb_c', (item) => heard.stranger.push(item));
    await bus.publish(changed('ws_1', 'inb_a', { kind: 'read', value: true, messageIds: ['m1'] }));
    await bus.publish(changed('ws_1', null, { kind: 'pruned' }));
    // An inbox id named with another workspace reaches nobody: routing checks both.
    await bus.publish(changed('ws_2', 'inb_a', { kind: 'deleted', messageIds: ['m2'] }));
    const kinds = (items: ActivityItem[]) => items.filter((item) => item.kind !== 'stats').map((item) => item.kind);
    assert.deepEqual(kinds(heard.a), ['read', 'pruned']);
    assert.deepEqual(kinds(heard.b), ['pruned']);
    assert.deepEqual(heard.stranger, []);
    await service.close();
  });

  it('sends an inbox\'s counts once after a burst of changes', async () => {
    const { bus, service, counts } = activity();
    await service.start();
    const heard: ActivityItem[] = [];
    await service.watch('ws_1', 'inb_a', (item) => heard.push(item));
    for (let n = 0; n < 5; n++) await bus.publish(changed('ws_1', 'inb_a', { kind: 'deleted', messageIds: [`m${n}`] }));
    await pollUntil(async () => heard.some((item) => item.kind === 'stats'), 2000, 'the counts');
    assert.deepEqual(heard.filter((item) => item.kind === 'stats'), [{ kind: 'stats', total: 2, unread: 1 }]);
    assert.equal(counts(), 1);
    await service.close();
  });

  it('takes a place among the workspace\'s streams per watch, refuses one past them, and gives it back once stopped', async () => {
    const { service } = activity(2);
    const stop = await service.watch('ws_1', 'inb_a', () => undefined);
    await service.watch('ws_1', 'inb_b', () => undefined);
    await assert.rejects(service.watch('ws_1', 'inb_a', () => undefined), (error: unknown) => error instanceof AppError && error.code === 'too_many_streams');
    await service.watch('ws_2', 'inb_c', () => undefined);
    stop();
    stop();
    await service.watch('ws_1', 'inb_a', () => undefined);
    await assert.rejects(service.watch('ws_1', 'inb_a', () => undefined), (error: unknown) => error instanceof AppError && error.code === 'too_many_streams', 'a second stop gave back nothing more');
  });
});
