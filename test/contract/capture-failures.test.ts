// A capture that fails after its index write, on every backend: the write happens for real, then the failure is
// injected where each profile can fail that late (the answer of a committed group lost, a written message's outcome a
// failure, the inbox check after the write failing; on the cluster also inside its store: a bulk applied whose answer
// is lost, a refresh failing after the bulk). The sender hears a temporary failure, and the message the index holds
// still has its raw source.
import { strict as assert } from 'node:assert';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Inbox, Workspace } from '../../src/domain/types.js';
import { rawBlobKey } from '../../src/domain/blob-keys.js';
import { AppError } from '../../src/errors.js';
import { IngestPipeline } from '../../src/ingest/ingest-message.js';
import { matchAll } from '../../src/query/ast.js';
import { WorkspaceService } from '../../src/services/accounts/workspaces.js';
import { InboxService } from '../../src/services/mail/inboxes.js';
import { TagRuleService } from '../../src/services/mail/tag-rules.js';
import { contentPoolFor, type ContentPool } from '../../src/content/content-pool.js';
import type { Backend, CaptureStore, CapturedMessage, MetadataStore } from '../../src/storage/ports.js';
import { BlobsThenIndex } from '../../src/storage/cluster/blobs-then-index.js';
import { elasticsearchLibrary } from '../../src/storage/cluster/cluster-libraries.js';
import type { ElasticsearchMessageIndex } from '../../src/storage/cluster/elasticsearch-message-index.js';
import type { MinioBlobStore } from '../../src/storage/cluster/minio-blob-store.js';
import type { QuotaLedger } from '../../src/storage/cluster/quota-ledger.js';
import { testProfile } from '../support/profile.js';
import { backendFactories, type BackendUnderTest } from './backends.js';

const silent = pino({ level: 'silent' });
const lost = () => new AppError('storage_unavailable', 'the answer was lost after the write', { component: 'injected' });

/** `target` with one method replaced; every other member is the target's own. */
function withFault<T extends object, K extends keyof T>(target: T, method: K, replacement: T[K]): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === method) return replacement;
      const value = Reflect.get(object, property, object) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

for (const factory of backendFactories) {
  describe(`a capture failing after its index write (${factory.profile})`, function () {
    this.timeout(60_000);
    let under: BackendUnderTest;
    let content: ContentPool;
    let workspaces: WorkspaceService;
    let inboxes: InboxService;
    let workspace: Workspace;

    before(async () => {
      under = await factory.open();
      const { backend } = under;
      workspaces = new WorkspaceService(backend.metadata, backend.captures, loadConfig({}).plans);
      inboxes = new InboxService(backend);
      content = contentPoolFor(loadConfig({}));
      workspace = (await workspaces.createWorkspace('late-failures', 'unlimited')).workspace;
    });
    after(async () => {
      await content.close();
      await under.dispose();
    });

    const pipelineOn = (backend: Pick<Backend, 'metadata' | 'bus' | 'captures'>) =>
      new IngestPipeline(backend, workspaces, inboxes, new TagRuleService(under.backend.metadata, inboxes), content, silent);

    const newInbox = async (): Promise<Inbox> => {
      const { inbox } = await inboxes.create(workspace, loadConfig({}).plans.unlimited!, `late-${Math.random().toString(36).slice(2)}`);
      return inboxes.require(workspace.id, inbox.id);
    };

    /** `captures`, noting the id of every message handed to it. */
    const noting = (captures: CaptureStore, ids: string[]) => withFault<CaptureStore, 'storeAll'>(captures, 'storeAll', (group: CapturedMessage[]) => {
      ids.push(...group.map(({ record }) => record.id));
      return captures.storeAll(group);
    });

    /**
     * Captures one message through `pipeline`, which must refuse it with storage_unavailable; the message (its id
     * noted in `ids`) must then be in the index, and have its raw source. The index is asked by id, which needs no
     * refresh, since one fault is a refresh that failed.
     */
    async function assertKeptWithRaw(pipeline: IngestPipeline, inbox: Inbox, ids: string[]): Promise<void> {
      const raw = Buffer.from(`From: app@late.test\r\nTo: qa@late.test\r\nSubject: written, then failed\r\n\r\nbody\r\n`);
      await assert.rejects(
        pipeline.ingest({ inbox, envelopeFrom: 'app@late.test', recipients: ['qa@late.test'], raw, tls: false, channel: 'http' }),
        (error: AppError) => error.code === 'storage_unavailable',
      );
      assert.equal(ids.length, 1);
      assert.notEqual(await under.backend.messages.get(workspace.id, ids[0]!), null, 'the write happened: the index holds the message');
      const stored = await under.backend.blobs.get(rawBlobKey(workspace.id, ids[0]!));
      assert.ok(stored, 'the message the index holds has its raw source');
      assert.ok(stored.equals(raw), 'byte for byte');
    }

    it('keeps the raw of a group whose answer is lost after the write (a writer thread gone, a dropped connection)', async () => {
      const ids: string[] = [];
      const captures = noting(under.backend.captures, ids);
      const faulty = withFault<CaptureStore, 'storeAll'>(captures, 'storeAll', async (group) => {
        await captures.storeAll(group);
        throw lost();
      });
      const inbox = await newInbox();
      await assertKeptWithRaw(pipelineOn({ ...under.backend, captures: faulty }), inbox, ids);
      const { records } = await under.backend.messages.list(workspace.id, inbox.id, { filter: matchAll(), limit: 10, after: null });
      assert.deepEqual(records.map((record) => record.id), ids, 'and lists it');
    });

    it('keeps the raw of a written message whose outcome is a failure', async () => {
      const ids: string[] = [];
      const captures = noting(under.backend.captures, ids);
      const faulty = withFault<CaptureStore, 'storeAll'>(captures, 'storeAll', async (group) => (await captures.storeAll(group)).map(() => lost()));
      await assertKeptWithRaw(pipelineOn({ ...under.backend, captures: faulty }), await newInbox(), ids);
    });

    it('keeps the raw when the look for the inbox after the write fails', async () => {
      const ids: string[] = [];
      const metadata = withFault<MetadataStore, 'getInbox'>(under.backend.metadata, 'getInbox', async () => {
        throw lost();
      });
      await assertKeptWithRaw(pipelineOn({ ...under.backend, metadata, captures: noting(under.backend.captures, ids) }), await newInbox(), ids);
    });

    if (testProfile() === 'cluster') {
      describe('inside the cluster\'s capture store (blobs, then the index)', () => {
        /** The cluster's capture store on the real MinIO, over the real index with `fault` laid over it. */
        const storeOver = (fault: (index: ElasticsearchMessageIndex) => object): CaptureStore => {
          const index = under.backend.messages as ElasticsearchMessageIndex;
          // Only storeAll is used, which never reads the allowance.
          return new BlobsThenIndex(under.backend.blobs as MinioBlobStore, Object.assign(Object.create(index) as ElasticsearchMessageIndex, fault(index)), {} as QuotaLedger);
        };

        it('keeps the raw when Elasticsearch applied the bulk but its answer was lost (a timeout)', async () => {
          const ids: string[] = [];
          const captures = storeOver((index) => {
            const client = (index as unknown as { client: { bulk: (request: unknown) => Promise<unknown> } }).client;
            return {
              client: Object.assign(Object.create(client) as object, {
                bulk: async (request: unknown) => {
                  await client.bulk(request);
                  throw new (elasticsearchLibrary().errors.TimeoutError)('Request timed out');
                },
              }),
            };
          });
          await assertKeptWithRaw(pipelineOn({ ...under.backend, captures: noting(captures, ids) }), await newInbox(), ids);
        });

        it('keeps the raw when the refresh after the bulk fails', async () => {
          const ids: string[] = [];
          const captures = storeOver(() => ({
            visible: async () => {
              throw lost();
            },
          }));
          await assertKeptWithRaw(pipelineOn({ ...under.backend, captures: noting(captures, ids) }), await newInbox(), ids);
        });

        it('removes the blobs of a message Elasticsearch certainly did not write', async () => {
          const ids: string[] = [];
          const captures = storeOver((index) => {
            const client = (index as unknown as { client: object }).client;
            return {
              client: Object.assign(Object.create(client) as object, {
                bulk: async () => {
                  throw new (elasticsearchLibrary().errors.NoLivingConnectionsError)('no living connections', {} as never);
                },
              }),
            };
          });
          const inbox = await newInbox();
          await assert.rejects(
            pipelineOn({ ...under.backend, captures: noting(captures, ids) }).ingest({
              inbox, envelopeFrom: 'app@late.test', recipients: ['qa@late.test'], raw: Buffer.from('Subject: never written\r\n\r\nx\r\n'), tls: false, channel: 'http',
            }),
            (error: AppError) => error.code === 'storage_unavailable',
          );
          assert.equal(await under.backend.messages.get(workspace.id, ids[0]!), null);
          assert.equal(await under.backend.blobs.get(rawBlobKey(workspace.id, ids[0]!)), null, 'no orphan is left for the sweep');
        });
      });
    }
  });
}
