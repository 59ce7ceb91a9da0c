// Wait and event streams on every backend, driven at the service level so the tests can land messages at exact
// points of a wait (the race windows) and count subscriptions; the HTTP endpoints are covered in test/e2e/realtime.
import { strict as assert } from 'node:assert';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Inbox, MessageRecord, Workspace } from '../../src/domain/types.js';
import { IngestPipeline } from '../../src/ingest/ingest-message.js';
import { listFilter } from '../../src/query/parse-query.js';
import { InboxFeeds } from '../../src/services/realtime/inbox-feeds.js';
import { InboxEventStreams, type InboxEventStream, type StreamItem } from '../../src/services/realtime/inbox-event-streams.js';
import { MessageWaiter, type WaitHooks } from '../../src/services/realtime/message-waiter.js';
import { InboxService } from '../../src/services/mail/inboxes.js';
import { TagRuleService } from '../../src/services/mail/tag-rules.js';
import { WorkspaceService } from '../../src/services/accounts/workspaces.js';
import { contentPoolFor, type ContentPool } from '../../src/content/content-pool.js';
import { AppError } from '../../src/errors.js';
import { backendFactories, type BackendUnderTest } from './backends.js';

/** Small, so a test can outrun it. */
const RESUME_LIMIT = 20;
const silent = pino({ level: 'silent' });

for (const factory of backendFactories) {
  describe(`wait and event streams (${factory.profile})`, function () {
    this.timeout(60_000);
    let under: BackendUnderTest;
    let feeds: InboxFeeds;
    let inboxes: InboxService;
    let pipeline: IngestPipeline;
    let content: ContentPool;
    let streams: InboxEventStreams;
    let workspace: Workspace;

    before(async () => {
      under = await factory.open({ SANDBOX_STREAM_RESUME_LIMIT: String(RESUME_LIMIT) });
      const { backend } = under;
      const workspaces = new WorkspaceService(backend.metadata, backend.captures, loadConfig({}).plans);
      inboxes = new InboxService(backend);
      content = contentPoolFor(loadConfig({}));
      pipeline = new IngestPipeline(backend, workspaces, inboxes, new TagRuleService(backend.metadata, inboxes), content, silent);
      feeds = new InboxFeeds(backend.messages, backend.bus, (error) => assert.fail(`feed failed: ${String(error)}`));
      await feeds.start();
      streams = new InboxEventStreams(feeds, backend.messages, inboxes);
      workspace = (await workspaces.createWorkspace('realtime', 'unlimited')).workspace;
    });
    after(async () => {
      await feeds.close();
      await content.close();
      await under.dispose();
    });

    const newInbox = async (): Promise<Inbox> => {
      const { inbox } = await inboxes.create(workspace, loadConfig({}).plans.unlimited!, `rt-${Math.random().toString(36).slice(2)}`);
      return inboxes.require(workspace.id, inbox.id);
    };
    const capture = (inbox: Inbox, subject: string): Promise<MessageRecord> => pipeline.ingest({
      inbox, envelopeFrom: 'app@sender.test', recipients: ['qa@rcpt.test'], tls: false, channel: 'http',
      raw: Buffer.from(`From: app@sender.test\r\nTo: qa@rcpt.test\r\nSubject: ${subject}\r\n\r\nbody of ${subject}\r\n`),
    });
    const waiter = (hooks: WaitHooks = {}) => new MessageWaiter(feeds, under.backend.messages, inboxes, hooks);
    const waitFor = (inbox: Inbox, subject: string, options: { hooks?: WaitHooks; timeoutMs?: number; signal?: AbortSignal } = {}) =>
      waiter(options.hooks).wait(workspace.id, inbox.id, listFilter({ subject }), options.timeoutMs ?? 10_000, options.signal ?? new AbortController().signal);

    /** Takes items from a stream until `count` messages have come (or a reset), or fails after `timeoutMs`. */
    async function take(stream: InboxEventStream, count: number, timeoutMs = 10_000): Promise<StreamItem[]> {
      const items: StreamItem[] = [];
      const iterator = stream.items[Symbol.asyncIterator]();
      const timer = setTimeout(() => stream.close(), timeoutMs);
      try {
        while (items.filter((item) => item.kind === 'message').length < count) {
          const next = await iterator.next();
          if (next.done) assert.fail(`the stream ended after ${items.length} items, expected ${count} messages`);
          items.push(next.value);
        }
        return items;
      } finally {
        clearTimeout(timer);
      }
    }
    const messageIds = (items: StreamItem[]) => items.flatMap((item) => (item.kind === 'message' ? [item.record.id] : []));
    const lastCursor = (items: StreamItem[]) => items.at(-1)!.cursor;

    describe('wait', () => {
      it('catches a message that lands between subscribing and the first lookup', async () => {
        const inbox = await newInbox();
        let landed: MessageRecord | undefined;
        const found = await waitFor(inbox, 'window-a', { hooks: { afterSubscribe: async () => {
          await capture(inbox, 'unrelated');
          landed = await capture(inbox, 'window-a');
        } } });
        assert.equal(found.id, landed!.id);
      });

      it('catches a message that lands right after a lookup that found nothing', async () => {
        const inbox = await newInbox();
        let landed: MessageRecord | undefined;
        const found = await waitFor(inbox, 'window-b', { hooks: { afterEmptyLookup: async () => {
          landed = await capture(inbox, 'window-b');
        } } });
        assert.equal(found.id, landed!.id);
      });

      it('catches messages whose capture overlaps the subscription and the lookup at any point', async () => {
        const inbox = await newInbox();
        for (let round = 0; round < 15; round++) {
          const subject = `overlap-${round}`;
          let capturing: Promise<MessageRecord> | undefined;
          // The capture starts in the window and is not awaited, so it commits somewhere during the lookup or after it.
          const found = await waitFor(inbox, subject, { hooks: { afterSubscribe: async () => {
            capturing = new Promise((resolve) => setTimeout(resolve, round % 5)).then(() => capture(inbox, subject));
          } } });
          assert.equal(found.id, (await capturing!).id, `round ${round}`);
        }
      });

      it('answers the newest existing match at once', async () => {
        const inbox = await newInbox();
        await capture(inbox, 'existing one');
        const newest = await capture(inbox, 'existing two');
        await capture(inbox, 'other');
        assert.equal((await waitFor(inbox, 'existing')).id, newest.id);
      });

      it('gives each of many concurrent waiters the message its filter selects', async () => {
        const inbox = await newInbox();
        const subjects = Array.from({ length: 25 }, (_, i) => `many-${String(i).padStart(2, '0')}`);
        const waits = subjects.map((subject) => waitFor(inbox, `${subject}!`));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const shuffled = [...subjects].sort(() => Math.random() - 0.5);
        const stored = new Map<string, string>();
        await Promise.all(shuffled.map(async (subject) => stored.set(subject, (await capture(inbox, `${subject}!`)).id)));
        const found = await Promise.all(waits);
        assert.deepEqual(found.map((m) => m.id), subjects.map((subject) => stored.get(subject)));
      });

      it('frees its subscription when the client goes away, and when it times out', async () => {
        const inbox = await newInbox();
        const before = feeds.listenerCount();
        const client = new AbortController();
        const abandoned = waitFor(inbox, 'never', { signal: client.signal });
        const timedOut = waitFor(inbox, 'never', { timeoutMs: 100 });
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(feeds.listenerCount(), before + 2);
        client.abort(new Error('client went away'));
        await assert.rejects(abandoned, /client went away/);
        assert.equal(feeds.listenerCount(), before + 1, 'freed as soon as the client left');
        await assert.rejects(timedOut, (error: AppError) => error.code === 'wait_timeout');
        assert.equal(feeds.listenerCount(), before);
      });

      it('refuses another workspace\'s inbox', async () => {
        const inbox = await newInbox();
        await assert.rejects(waiter().wait('ws_someone_else', inbox.id, listFilter({}), 1000, new AbortController().signal),
          (error: AppError) => error.code === 'not_found');
      });
    });

    describe('event streams', () => {
      it('starts at the newest arrival and sends what arrives later, in order', async () => {
        const inbox = await newInbox();
        await capture(inbox, 'before the stream');
        const stream = await streams.open(workspace.id, inbox.id, undefined);
        const sent: string[] = [];
        for (let i = 0; i < 5; i++) sent.push((await capture(inbox, `live ${i}`)).id);
        const items = await take(stream, 5);
        stream.close();
        assert.equal(items[0]!.kind, 'ready');
        assert.deepEqual(messageIds(items), sent);
      });

      it('resumes after a cursor with exactly what came later, also while mail keeps arriving', async () => {
        const inbox = await newInbox();
        const stream = await streams.open(workspace.id, inbox.id, undefined);
        const sent: string[] = [];
        for (let i = 0; i < 3; i++) sent.push((await capture(inbox, `first ${i}`)).id);
        const seen = await take(stream, 3);
        stream.close();
        for (let i = 0; i < 10; i++) sent.push((await capture(inbox, `away ${i}`)).id);
        const resumed = await streams.open(workspace.id, inbox.id, lastCursor(seen));
        // Stored after the stream subscribed and before its replay reads the log, these reach it both ways.
        for (let i = 0; i < 5; i++) sent.push((await capture(inbox, `overlap ${i}`)).id);
        const arriving = (async () => {
          for (let i = 0; i < 5; i++) sent.push((await capture(inbox, `during ${i}`)).id);
        })();
        const rest = await take(resumed, 20);
        await arriving;
        resumed.close();
        assert.deepEqual([...messageIds(seen), ...messageIds(rest)], sent, 'every message once, in the order stored');
      });

      it('sends a reset when the cursor is older than the log keeps, and goes on from the newest arrival', async () => {
        const inbox = await newInbox();
        const stream = await streams.open(workspace.id, inbox.id, undefined);
        await capture(inbox, 'seen');
        const seen = await take(stream, 1);
        stream.close();
        for (let i = 0; i < RESUME_LIMIT + 5; i++) await capture(inbox, `missed ${i}`);
        const resumed = await streams.open(workspace.id, inbox.id, lastCursor(seen));
        const after = await capture(inbox, 'after the reset');
        const items = await take(resumed, 1);
        resumed.close();
        assert.deepEqual(items.map((item) => item.kind), ['ready', 'reset', 'message']);
        assert.deepEqual(messageIds(items), [after.id]);
      });

      it('refuses a cursor of another inbox, and frees its subscription when closed', async () => {
        const [inbox, other] = [await newInbox(), await newInbox()];
        const stream = await streams.open(workspace.id, inbox.id, undefined);
        const position = (await stream.items[Symbol.asyncIterator]().next()).value as StreamItem;
        const before = feeds.listenerCount();
        stream.close();
        assert.equal(feeds.listenerCount(), before - 1);
        await assert.rejects(streams.open(workspace.id, other.id, position.cursor), (error: AppError) => error.code === 'invalid_cursor');
        await assert.rejects(streams.open(workspace.id, inbox.id, 'garbage'), (error: AppError) => error.code === 'invalid_cursor');
        assert.equal(feeds.listenerCount(), before - 1, 'refused opens leave no subscription behind');
      });
    });
  });
}
