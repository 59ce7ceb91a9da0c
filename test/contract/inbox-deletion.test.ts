// Removing messages and deleting inboxes through the services, run against every backend: documents with their
// blobs, and everything an inbox's deletion cascades to (tag rules, webhooks, arrival log), of that inbox only.
import { strict as assert } from 'node:assert';
import { newId } from '../../src/domain/ids.js';
import { rawBlobKey } from '../../src/domain/blob-keys.js';
import type { Inbox, TagRule, Webhook, Workspace } from '../../src/domain/types.js';
import { loadConfig } from '../../src/config.js';
import type { Backend } from '../../src/storage/ports.js';
import { InboxService } from '../../src/services/mail/inboxes.js';
import { removeMessages } from '../../src/services/mail/message-removal.js';
import { WorkspaceService } from '../../src/services/accounts/workspaces.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { aMessage, aWebhook, insertOne, UNLIMITED } from './fixtures.js';

for (const factory of backendFactories) {
  describe(`Message removal and inbox deletion (${factory.profile})`, function () {
    this.timeout(60_000);
    let under: BackendUnderTest;
    let backend: Backend;
    let workspaces: WorkspaceService;
    let inboxes: InboxService;

    before(async () => {
      under = await factory.open();
      backend = under.backend;
      workspaces = new WorkspaceService(backend.metadata, backend.captures, loadConfig({}).plans);
      inboxes = new InboxService(backend);
    });
    after(() => under.dispose());

    async function newInboxes(count: number): Promise<{ workspace: Workspace; inboxes: Inbox[] }> {
      const { workspace } = await workspaces.createWorkspace('removal', 'unlimited');
      const plan = workspaces.planFor(workspace);
      const created: Inbox[] = [];
      for (let i = 0; i < count; i++) created.push((await inboxes.create(workspace, plan, `inbox ${i}`)).inbox);
      return { workspace, inboxes: created };
    }

    /** Stores a message with its raw blob; resolves to its id. */
    async function capture(inbox: Inbox, subject = 'hello'): Promise<string> {
      const message = aMessage(inbox.workspaceId, inbox.id);
      const rawKey = rawBlobKey(inbox.workspaceId, message.id);
      await backend.blobs.putMany([{ key: rawKey, data: Buffer.from(`raw ${message.id}`) }]);
      await insertOne(backend.captures, { ...message, rawKey, subject, search: { ...message.search, subject } }, UNLIMITED);
      return message.id;
    }

    const stored = async (workspaceId: string, id: string) => ({
      document: (await backend.messages.get(workspaceId, id)) !== null,
      blob: (await backend.blobs.get(rawBlobKey(workspaceId, id))) !== null,
    });

    async function tagRule(workspaceId: string, inboxId: string | null): Promise<TagRule> {
      const rule = { id: newId('rule'), workspaceId, inboxId, query: 'hello', tags: ['x'], createdAt: new Date() };
      await backend.metadata.createTagRule(rule, null);
      return rule;
    }

    async function webhook(workspaceId: string, inboxId: string | null): Promise<Webhook> {
      const created = aWebhook(workspaceId, { inboxId });
      assert.equal(await backend.webhooks.createWebhook(created, null), 'created');
      return created;
    }

    it('removes the selected messages with their blobs, and nothing else', async () => {
      const { workspace, inboxes: [inbox] } = await newInboxes(1);
      const [gone, byQuery, kept] = [await capture(inbox!), await capture(inbox!, 'expired'), await capture(inbox!)];
      assert.deepEqual(await removeMessages(backend, { workspaceId: workspace.id, ids: [gone, 'msg_absent'] }), [gone]);
      assert.deepEqual(await removeMessages(backend, { workspaceId: workspace.id, filter: { kind: 'text', fields: ['subject'], needle: 'expired' } }), [byQuery]);
      assert.deepEqual(await removeMessages(backend, { workspaceId: 'ws_other', ids: [kept] }), [], 'another workspace removes nothing');
      assert.deepEqual(await stored(workspace.id, gone), { document: false, blob: false });
      assert.deepEqual(await stored(workspace.id, byQuery), { document: false, blob: false });
      assert.deepEqual(await stored(workspace.id, kept), { document: true, blob: true });
    });

    it('clears an inbox\'s messages and blobs, keeping the inbox, its rules, webhooks and arrival log', async () => {
      const { workspace, inboxes: [inbox] } = await newInboxes(1);
      const ids = [await capture(inbox!), await capture(inbox!)];
      const rule = await tagRule(workspace.id, inbox!.id);
      const hook = await webhook(workspace.id, inbox!.id);
      assert.equal(await inboxes.clear(workspace.id, inbox!.id), 2);
      for (const id of ids) assert.deepEqual(await stored(workspace.id, id), { document: false, blob: false });
      assert.ok(await inboxes.find(workspace.id, inbox!.id));
      assert.ok(await backend.metadata.getTagRule(workspace.id, rule.id));
      assert.ok(await backend.webhooks.getWebhook(workspace.id, hook.id));
      assert.equal(await backend.messages.latestArrival(workspace.id, inbox!.id), 2);
    });

    it('deletes an inbox with all that belongs to it, and nothing of another inbox or the workspace', async () => {
      const { workspace, inboxes: [doomed, kept] } = await newInboxes(2);
      const doomedMessages = [await capture(doomed!), await capture(doomed!)];
      const keptMessage = await capture(kept!);
      const [doomedRule, keptRule, wideRule] = [await tagRule(workspace.id, doomed!.id), await tagRule(workspace.id, kept!.id), await tagRule(workspace.id, null)];
      const [doomedHook, keptHook, wideHook] = [await webhook(workspace.id, doomed!.id), await webhook(workspace.id, kept!.id), await webhook(workspace.id, null)];

      assert.equal(await inboxes.delete(workspace.id, doomed!.id), 2);

      assert.equal(await inboxes.find(workspace.id, doomed!.id), null);
      for (const id of doomedMessages) assert.deepEqual(await stored(workspace.id, id), { document: false, blob: false });
      assert.equal(await backend.messages.latestArrival(workspace.id, doomed!.id), 0, 'its arrival log is dropped');
      assert.equal(await backend.metadata.getTagRule(workspace.id, doomedRule.id), null);
      assert.equal(await backend.webhooks.getWebhook(workspace.id, doomedHook.id), null);

      assert.deepEqual(await stored(workspace.id, keptMessage), { document: true, blob: true });
      assert.equal(await backend.messages.latestArrival(workspace.id, kept!.id), 1);
      assert.deepEqual((await backend.metadata.listTagRules(workspace.id)).map((r) => r.id).sort(), [keptRule.id, wideRule.id].sort());
      assert.deepEqual((await backend.webhooks.listWebhooks(workspace.id)).map((w) => w.id).sort(), [keptHook.id, wideHook.id].sort());
      await assert.rejects(inboxes.delete(workspace.id, doomed!.id), (error: Error & { code?: string }) => error.code === 'not_found');
    });

    it('sweeps what reached an inbox after its deletion, as a capture that finished meanwhile does', async () => {
      const { workspace, inboxes: [inbox] } = await newInboxes(1);
      await inboxes.delete(workspace.id, inbox!.id);
      const straggler = await capture(inbox!);
      const rule = await tagRule(workspace.id, inbox!.id);
      assert.equal(await backend.messages.latestArrival(workspace.id, inbox!.id), 1, 'the late insert logged an arrival');
      assert.equal(await inboxes.sweepDeleted(workspace.id, inbox!.id), 1);
      assert.deepEqual(await stored(workspace.id, straggler), { document: false, blob: false });
      assert.equal(await backend.metadata.getTagRule(workspace.id, rule.id), null);
      assert.equal(await backend.messages.latestArrival(workspace.id, inbox!.id), 0);
    });
  });
}
