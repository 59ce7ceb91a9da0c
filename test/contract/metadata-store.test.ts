// MetadataStore contract, run against every backend.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { newId } from '../../src/domain/ids.js';
import type { MetadataStore } from '../../src/storage/ports.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { aWorkspace, anApiKey, anInbox } from './fixtures.js';
import { defaultInboxSettings } from '../../src/domain/inbox-settings.js';
import { chaosSettingsFrom } from '../../src/domain/chaos.js';

const hasCode = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

for (const factory of backendFactories) {
  describe(`MetadataStore contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let store: MetadataStore;
    before(async () => {
      under = await factory.open();
      store = under.backend.metadata;
    });
    after(() => under.dispose());

    it('stores and lists workspaces and changes their plan', async () => {
      const workspace = aWorkspace({ name: 'acme' });
      await store.createWorkspace(workspace);
      assert.deepEqual(await store.getWorkspace(workspace.id), workspace);
      assert.ok((await store.listWorkspaces()).some((w) => w.id === workspace.id));
      assert.equal(await store.setWorkspacePlan(workspace.id, 'team'), true);
      assert.equal((await store.getWorkspace(workspace.id))!.planName, 'team');
      assert.equal(await store.setWorkspacePlan('ws_missing', 'team'), false);
      assert.equal(await store.getWorkspace('ws_missing'), null);
    });

    it('adds members up to the limit and refuses duplicates', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const add = (email: string) => store.addMember({ workspaceId: workspace.id, email, role: 'member', createdAt: new Date() }, 2);
      assert.equal(await add('a@x.test'), 'added');
      assert.equal(await add('a@x.test'), 'already_member');
      assert.equal(await add('b@x.test'), 'added');
      assert.equal(await add('c@x.test'), 'limit_reached');
      assert.equal(await add('a@x.test'), 'already_member', 'a member already is one, whatever the limit');
      assert.equal(await store.countMembers(workspace.id), 2);
    });

    it('finds API keys by hash and revokes them once', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const key = anApiKey(workspace.id, { name: 'ci', keyHash: 'f'.repeat(64) });
      await store.createApiKey(key);
      assert.deepEqual(await store.findApiKeyByHash(key.keyHash), key);
      assert.equal(await store.findApiKeyByHash('0'.repeat(64)), null);
      const revokedAt = new Date(Date.now() + 1000);
      assert.equal(await store.revokeApiKey(key.id, revokedAt), true);
      assert.deepEqual((await store.findApiKeyByHash(key.keyHash))!.revokedAt, revokedAt);
      assert.equal(await store.revokeApiKey(key.id, new Date()), false, 'a revoked key is not revoked again');
      assert.deepEqual((await store.findApiKeyByHash(key.keyHash))!.revokedAt, revokedAt, 'the first revocation time stays');
      assert.equal(await store.revokeApiKey('key_missing', new Date()), false);
    });

    it('keeps a key\'s name, prefix and last use; a CLI key has no name', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const cliKey = anApiKey(workspace.id, { name: null });
      await store.createApiKey(cliKey);
      assert.deepEqual(await store.findApiKeyByHash(cliKey.keyHash), cliKey);
      await store.touchApiKey(cliKey.id, new Date(5_000_000));
      assert.deepEqual((await store.findApiKeyByHash(cliKey.keyHash))!.lastUsedAt, new Date(5_000_000));
      await store.touchApiKey(cliKey.id, new Date(4_000_000));
      assert.deepEqual((await store.findApiKeyByHash(cliKey.keyHash))!.lastUsedAt, new Date(5_000_000), 'a touch that lands late never moves it back');
      await store.touchApiKey('key_missing', new Date());
      assert.deepEqual((await store.listApiKeys(workspace.id)).map((k) => k.id), [cliKey.id], 'touching an unknown key creates nothing');
    });

    it('lists a workspace\'s keys that are not revoked, oldest first, and revokes only within the given workspace', async () => {
      const [one, two] = [aWorkspace(), aWorkspace()];
      await store.createWorkspace(one);
      await store.createWorkspace(two);
      const older = anApiKey(one.id, { createdAt: new Date(1_000) });
      const newer = anApiKey(one.id, { createdAt: new Date(2_000), name: 'deploy' });
      const elsewhere = anApiKey(two.id);
      for (const key of [newer, older, elsewhere]) await store.createApiKey(key);
      assert.deepEqual(await store.listApiKeys(one.id), [older, newer]);
      assert.equal(await store.revokeApiKey(older.id, new Date(), two.id), false, 'another workspace cannot revoke it');
      assert.deepEqual((await store.listApiKeys(one.id)).map((k) => k.id), [older.id, newer.id]);
      assert.equal(await store.revokeApiKey(older.id, new Date(), one.id), true);
      assert.deepEqual(await store.listApiKeys(one.id), [newer]);
      assert.deepEqual(await store.listApiKeys('ws_missing'), []);
    });

    it('keeps inbox names unique per workspace regardless of case', async () => {
      const [one, two] = [aWorkspace(), aWorkspace()];
      await store.createWorkspace(one);
      await store.createWorkspace(two);
      assert.equal(await store.createInbox(anInbox(one.id, { name: 'Staging' }), null), 'created');
      assert.equal(await store.createInbox(anInbox(one.id, { name: 'staging' }), null), 'name_taken');
      assert.equal(await store.createInbox(anInbox(one.id, { name: 'STAGING' }), 1), 'name_taken', 'a taken name is told before the limit');
      assert.equal(await store.createInbox(anInbox(two.id, { name: 'staging' }), null), 'created');
      assert.equal(await store.countInboxes(one.id), 1);
      const [first] = await store.listInboxes(one.id);
      await assert.rejects(store.createInbox(anInbox(one.id, { smtpUsername: first!.smtpUsername }), null), hasCode('already_exists'), 'a taken SMTP username is no outcome but an error');
    });

    it('enforces the inbox limit under concurrent creation', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.createInbox(anInbox(workspace.id), 3)));
      assert.deepEqual(outcomes.sort(), [...Array(3).fill('created'), ...Array(7).fill('limit_reached')]);
      assert.equal(await store.countInboxes(workspace.id), 3);
    });

    it('looks inboxes up by SMTP username, rotates passwords and deletes', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const inbox = anInbox(workspace.id);
      await store.createInbox(inbox, null);
      assert.deepEqual(await store.findInboxBySmtpUsername(inbox.smtpUsername), inbox);
      assert.equal(await store.getInbox('ws_other', inbox.id), null, 'another workspace never sees it');
      assert.deepEqual(await store.findInboxById(inbox.id), inbox);
      assert.equal(await store.findInboxById('inb_none'), null);
      const rotated = await store.setInboxPassword(workspace.id, inbox.id, 'a'.repeat(64));
      assert.equal(rotated!.smtpPasswordHash, 'a'.repeat(64));
      assert.equal(await store.setInboxPassword('ws_other', inbox.id, 'b'.repeat(64)), null);
      assert.deepEqual((await store.listInboxes(workspace.id)).map((i) => i.id), [inbox.id]);
      assert.equal(await store.deleteInbox('ws_other', inbox.id), false);
      assert.equal(await store.deleteInbox(workspace.id, inbox.id), true);
      assert.equal(await store.findInboxBySmtpUsername(inbox.smtpUsername), null);
    });

    it('keeps an inbox\'s settings: defaults at creation, a section replaced whole, seen by every read, gone with the inbox', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const inbox = anInbox(workspace.id);
      await store.createInbox(inbox, null);
      assert.deepEqual((await store.getInbox(workspace.id, inbox.id))!.settings, defaultInboxSettings());
      const chaos = chaosSettingsFrom({ enabled: true, recipient: { probability: 50, code: 451, message: 'try later' }, delay: { stage: 'data', probability: 100, ms: 250 } });
      const updated = await store.setInboxSettings(workspace.id, inbox.id, { chaos });
      assert.deepEqual(updated, { ...inbox, settings: { chaos } });
      assert.deepEqual((await store.getInbox(workspace.id, inbox.id))!.settings.chaos, chaos);
      assert.deepEqual((await store.findInboxBySmtpUsername(inbox.smtpUsername))!.settings.chaos, chaos);
      assert.deepEqual((await store.listInboxes(workspace.id))[0]!.settings.chaos, chaos);
      const replaced = chaosSettingsFrom({ enabled: false });
      assert.deepEqual((await store.setInboxSettings(workspace.id, inbox.id, { chaos: replaced }))!.settings.chaos, replaced, 'replaced whole, nothing of the old kept');
      assert.equal(await store.setInboxSettings('ws_other', inbox.id, { chaos }), null, 'another workspace changes nothing');
      assert.deepEqual((await store.getInbox(workspace.id, inbox.id))!.settings.chaos, replaced);
      const rotated = await store.setInboxPassword(workspace.id, inbox.id, 'c'.repeat(64));
      assert.deepEqual(rotated!.settings.chaos, replaced, 'other writes keep the settings');
      assert.equal(await store.deleteInbox(workspace.id, inbox.id), true);
      assert.equal(await store.setInboxSettings(workspace.id, inbox.id, { chaos }), null, 'a deleted inbox has none to set');
    });

    it('keeps tag colours and moves them on rename, the target colour winning', async () => {
      await store.setTagColor('ws_c', 'a', '#ff0000');
      await store.setTagColor('ws_c', 'b', 'blue');
      await store.renameTagColor('ws_c', 'a', 'b');
      assert.deepEqual(Object.fromEntries(await store.listTagColors('ws_c')), { b: 'blue' });
      await store.renameTagColor('ws_c', 'b', 'c');
      assert.deepEqual(Object.fromEntries(await store.listTagColors('ws_c')), { c: 'blue' });
      await store.setTagColor('ws_c', 'c', null);
      assert.equal((await store.listTagColors('ws_c')).size, 0);
    });

    it('stores, replaces and deletes tag rules, and those of an inbox together', async () => {
      const workspace = aWorkspace();
      await store.createWorkspace(workspace);
      const inbox = anInbox(workspace.id);
      await store.createInbox(inbox, null);
      const everywhere = { id: newId('rule'), workspaceId: workspace.id, inboxId: null, query: 'reset', tags: ['auth'], createdAt: new Date(1000) };
      const scoped = { ...everywhere, id: newId('rule'), inboxId: inbox.id, createdAt: new Date(2000) };
      await store.createTagRule(everywhere, null);
      await store.createTagRule(scoped, null);
      assert.deepEqual((await store.listTagRules(workspace.id)).map((r) => r.id), [everywhere.id, scoped.id]);
      assert.deepEqual((await store.listTagRules(workspace.id, inbox.id)).map((r) => r.id), [scoped.id]);
      assert.equal(await store.replaceTagRule({ ...everywhere, query: 'invoice', tags: ['billing'] }), true);
      assert.deepEqual(await store.getTagRule(workspace.id, everywhere.id), { ...everywhere, query: 'invoice', tags: ['billing'] });
      assert.equal(await store.getTagRule('ws_other', everywhere.id), null);
      assert.equal(await store.deleteInbox(workspace.id, inbox.id), true);
      assert.equal((await store.listTagRules(workspace.id)).length, 2, 'deleting the inbox alone keeps its rules (InboxService removes them)');
      assert.equal(await store.deleteTagRulesOfInbox('ws_other', inbox.id), 0, 'another workspace deletes nothing');
      assert.equal(await store.deleteTagRulesOfInbox(workspace.id, inbox.id), 1);
      assert.deepEqual((await store.listTagRules(workspace.id)).map((r) => r.id), [everywhere.id]);
      assert.deepEqual(await store.listTagRules(workspace.id, inbox.id), []);
      assert.equal(await store.deleteTagRulesOfInbox(workspace.id, inbox.id), 0);
      assert.equal(await store.deleteTagRule(workspace.id, everywhere.id), true);
      assert.equal(await store.deleteTagRule(workspace.id, everywhere.id), false);
    });

    it('creates a shared secret once and returns it ever after', async () => {
      const first = await store.secret('contract-secret', () => 'one');
      assert.equal(first, 'one');
      assert.equal(await store.secret('contract-secret', () => 'two'), 'one');
    });
  });
}
