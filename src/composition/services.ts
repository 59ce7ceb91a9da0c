// The first phase of the server's wiring: storage for the configured profile, the content pool, and every service
// built on them; no socket is opened and no background job started, so a test can use them in-process.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { openBackend } from '../storage/index.js';
import type { Backend } from '../storage/ports.js';
import type { Chance } from '../domain/chaos.js';
import { contentPoolFor, type ContentPool } from '../content/content-pool.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { NameResolver, nameResolverSettings } from '../outbound/name-resolver.js';
import { WebhookDeliveryWorker } from '../workers/webhook-deliveries.js';
import { MessageService } from '../services/mail/messages.js';
import { MessageContentService } from '../services/mail/message-content.js';
import { FileServingTurns } from '../services/files/file-serving-turns.js';
import { FileUrlSigner } from '../services/files/signed-urls.js';
import { CaptureAdmission } from '../services/capture/capture-admission.js';
import { InboxChaosService } from '../services/mail/inbox-chaos.js';
import { TagService } from '../services/mail/tags.js';
import { SendService } from '../services/capture/send.js';
import { InboxFeeds } from '../services/realtime/inbox-feeds.js';
import { MessageWaiter } from '../services/realtime/message-waiter.js';
import { InboxEventStreams, streamPlaces } from '../services/realtime/inbox-event-streams.js';
import { InboxActivity } from '../services/realtime/inbox-activity.js';
import { OpenInbox } from '../services/mail/open-inbox.js';
import { announcingChanges } from '../services/realtime/change-announcements.js';
import { buildCaptureServices, type CaptureServices } from './capture-services.js';
import { buildAccountServices, type AccountServices } from './account-services.js';
import type { Teardown } from './teardown.js';

/** What the application takes from its host rather than from the world, so a test can hold them. */
export interface ApplicationDeps {
  log: Logger;
  now?: () => Date;
  /** Secure random bytes (the signing secret of file links, on the very first start). */
  random: (bytes: number) => Buffer;
  /** What chaos rolls with, in the SMTP server and the dry run alike; by default drawn from `random`. */
  chance?: Chance;
}

export interface Services extends CaptureServices {
  log: Logger;
  now: () => Date;
  chance: Chance;
  backend: Backend;
  contentPool: ContentPool;
  metrics: ServiceMetrics;
  /** One gate for the name lookups of every outbound request, taken in turns by workspace. */
  outboundNames: NameResolver;
  /** Built here because the webhook service wakes it when it queues deliveries; started with the other workers. */
  deliveryWorker: WebhookDeliveryWorker;
  accounts: AccountServices;
  captureAdmission: CaptureAdmission;
  messages: MessageService;
  content: MessageContentService;
  fileTurns: FileServingTurns;
  signer: FileUrlSigner;
  chaos: InboxChaosService;
  tags: TagService;
  send: SendService;
  waiter: MessageWaiter;
  eventStreams: InboxEventStreams;
  /** What happens to an inbox's messages, live, for Mailpit's /api/events. */
  activity: InboxActivity;
  /** SANDBOX_OPEN_INBOX's inbox, which takes mail without credentials on a port of its own; null: none is named. */
  openInbox: OpenInbox | null;
  /** Ends open waits (503) and event streams, so HTTP can close: shutdown runs it before the teardown sweep does. */
  closeFeeds: () => Promise<void>;
}

/** Mailpit sends a mailbox's counts at most four times a second; so does its event stream here, per inbox and node. */
const MAILPIT_STATS_DELAY_MS = 250;

/** A uniform number in [0, 1) from 48 random bits. */
const chanceFrom = (random: (bytes: number) => Buffer): Chance => () => random(6).readUIntBE(0, 6) / 2 ** 48;

/** What this opens (storage, the pool, the feeds' subscription) is undone by `teardown`, also when it fails half way. */
export async function buildServices(config: Readonly<Config>, deps: ApplicationDeps, teardown: Teardown): Promise<Services> {
  const { log } = deps;
  const now = deps.now ?? (() => new Date());
  const chance = deps.chance ?? chanceFrom(deps.random);
  const opened = await openBackend(config, { onError: (error, context) => log.warn({ err: error }, `${context} failed`) });
  teardown.add(() => opened.close());
  // Every change to messages, whichever service makes it, is announced to the live views of every node.
  const backend: Backend = { ...opened, messages: announcingChanges(opened.messages, opened.bus, (error) => log.warn({ err: error }, 'announcing a change to messages failed')) };
  const contentPool = contentPoolFor(config);
  teardown.add(() => contentPool.close());
  const metrics = new ServiceMetrics({
    webhookQueue: () => backend.webhooks.queueStats(),
    contentTasks: () => contentPool.stats(),
    contentTasksStarted: () => contentPool.tasksStarted(),
    workerThreads: () => new Map([['content', contentPool.threads.length], ...backend.workerThreads()]),
    rateLimitState: () => backend.rateLimiter.stateSize(),
  });

  const outboundNames = new NameResolver(nameResolverSettings(config));
  const deliveryWorker = new WebhookDeliveryWorker(
    backend.webhooks,
    { allowPrivate: config.webhookAllowPrivate, names: outboundNames },
    {
      timeScale: config.webhookTimeScale,
      concurrency: config.webhookConcurrency,
      perWorkspace: config.webhookConcurrencyPerWorkspace,
      perHost: config.webhookConcurrencyPerHost,
      breakerFailures: config.webhookBreakerFailures,
      breakerCoolOffMs: config.webhookBreakerCoolOffSeconds * 1000,
      attempted: (outcome) => metrics.deliveryAttempted(outcome),
    },
    log,
    now,
  );
  const capture = buildCaptureServices(backend, config, contentPool, log, () => deliveryWorker.wake(), { now, observer: metrics });
  const { inboxes, pipeline } = capture;
  const accounts = buildAccountServices(backend, config, capture.workspaces, now);
  const messages = new MessageService(backend, inboxes, config.scanRowsPerPage);
  // Large messages' files are read one at a time per workspace and two over all: each holds the event loop a while.
  const content = new MessageContentService(messages, backend.blobs, contentPool, new FileServingTurns(1, 2));
  // One secret for every node, so a link signed by one is honoured by all.
  const signer = new FileUrlSigner(await backend.metadata.secret('file-url-signing', () => deps.random(32).toString('hex')), config.fileUrlTtlSeconds);

  // Waits and event streams hear of arrivals through the feeds, which follow the bus from here on.
  const feeds = new InboxFeeds(backend.messages, backend.bus, (error, context) => log.warn({ err: error }, `${context} failed`));
  await feeds.start();
  // One count of open streams per workspace for SSE and Mailpit's WebSocket together: the cap is on streams, of any kind.
  const places = streamPlaces(config.streamsPerWorkspace);
  const activity = new InboxActivity(feeds, backend.bus, backend.messages, inboxes, places, { statsDelayMs: MAILPIT_STATS_DELAY_MS },
    (error, context) => log.warn({ err: error }, `${context} failed`));
  await activity.start();
  teardown.add(() => activity.close());
  const closeFeeds = teardown.add(() => feeds.close());

  return {
    ...capture,
    log,
    now,
    chance,
    backend,
    contentPool,
    metrics,
    outboundNames,
    deliveryWorker,
    accounts,
    captureAdmission: new CaptureAdmission(config.captures),
    messages,
    content,
    fileTurns: new FileServingTurns(config.fileServesPerWorkspace),
    signer,
    chaos: new InboxChaosService(inboxes, chance),
    tags: new TagService(backend.metadata, backend.messages),
    send: new SendService(inboxes, pipeline, config.maxMessageBytes),
    waiter: new MessageWaiter(feeds, backend.messages, inboxes, {}, config.waitsPerWorkspace),
    eventStreams: new InboxEventStreams(feeds, backend.messages, inboxes, { places }),
    activity,
    openInbox: config.openInbox && new OpenInbox(config.openInbox, backend.metadata),
    closeFeeds,
  };
}
