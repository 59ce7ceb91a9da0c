// End-to-end tests of read state, message deletion, per-message tags, workspace tags, tag rules and the batch
// endpoint, against the real built server (child process, real SMTP through nodemailer, real HTTP). Every
// request goes through ApiClient, which checks each response against openapi.yaml.
//
// Tag lists, tag rules and batch queries span a whole workspace, so tests that need exact counts get a fresh
// workspace of their own (created with the admin CLI) instead of depending on what other tests left behind.
import { strict as assert } from 'node:assert';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { ApiClient } from '../support/api-client.js';
import { admin, createWorkspace } from '../support/admin.js';
import type { BatchResultJson, InboxJson, InboxWithCredentialsJson, TagJson, TagRuleJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

// ---------------------------------------------------------------------------------------------------------
// Small helpers.

const put = <T = unknown>(api: ApiClient, path: string, body?: unknown) => api.request<T>('PUT', path, body === undefined ? {} : { body });

/** Sends one message per subject (see sendMails) and returns the stored ids in send order. */
function sendSubjects(inbox: InboxWithCredentialsJson, subjects: string[]): Promise<string[]> {
  return sendMails(credentialsOf(inbox), subjects.map((subject) => ({ from: 'app@example.com', to: 'user@example.com', subject, text: `body of ${subject}` })));
}

/** Like sendSubjects, for messages that need their own sender, body or attachments. */
function sendMailsTo(inbox: InboxWithCredentialsJson, mails: Mail.Options[]): Promise<string[]> {
  return sendMails(credentialsOf(inbox), mails.map((mail) => ({ to: 'user@example.com', ...mail })));
}

const idsOf = (messages: { id: string }[]) => messages.map((message) => message.id).sort();

async function listTags(api: ApiClient): Promise<TagJson[]> {
  return expectOk<TagJson[]>(await api.get('/v1/tags'));
}

async function tagNamed(api: ApiClient, name: string): Promise<TagJson | undefined> {
  return (await listTags(api)).find((tag) => tag.name === name);
}

async function setTags(api: ApiClient, id: string, tags: string[]): Promise<string[]> {
  return expectOk<{ tags: string[] }>(await put(api, `/v1/messages/${id}/tags`, { tags }), 200, `set tags ${tags.join(',')} on ${id}`).tags;
}

async function batch(api: ApiClient, request: Record<string, unknown>): Promise<number> {
  const result = expectOk<BatchResultJson>(await api.post('/v1/messages/batch', request), 200, `batch ${JSON.stringify(request).slice(0, 200)}`);
  assert.equal(result.action, request.action);
  return result.affected;
}

async function inboxCount(api: ApiClient, inboxId: string): Promise<number> {
  return expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxId}`)).message_count;
}

/** The message is gone everywhere a client could look: detail, raw source and its inbox's list. */
async function assertMessageGone(api: ApiClient, inboxId: string, id: string): Promise<void> {
  expectError(await api.get(`/v1/messages/${id}`), 404, 'not_found', `detail of deleted ${id}`);
  expectError(await api.get(`/v1/messages/${id}/raw`), 404, 'not_found', `raw of deleted ${id}`);
  expectError(await api.get(`/v1/messages/${id}/links`), 404, 'not_found', `links of deleted ${id}`);
  assert.ok(!idsOf(await listMessages(api, inboxId)).includes(id), `deleted ${id} is still listed`);
}

/** A snapshot of read state and tags of the given messages, to prove that a refused request changed nothing. */
async function snapshot(api: ApiClient, ids: string[]): Promise<{ id: string; read: boolean; tags: string[] }[]> {
  return Promise.all(ids.map(async (id) => {
    const message = await detailOf(api, id);
    return { id, read: message.read, tags: message.tags };
  }));
}

// ---------------------------------------------------------------------------------------------------------

describe('read state, deletion, tags, tag rules and batch (e2e, shared server)', function () {
  this.timeout(60_000);

  let server: StartedServer;
  /** The default workspace, read_write. */
  let api: ApiClient;
  let workspaceAId: string;
  /** Another workspace, read_write; its objects must be invisible to `api` and vice versa. */
  let apiB: ApiClient;
  let inboxB: InboxWithCredentialsJson;
  /** A read-only key of the default workspace. */
  let reader: ApiClient;

  before(async () => {
    server = await startServer();
    assert.ok(server.defaultKey, 'the first start prints the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    workspaceAId = expectOk<{ id: string }>(await api.get('/v1/workspace')).id;
    apiB = api.withKey(createWorkspace(server.dataDir, 'other').key.key);
    inboxB = await createInbox(apiB);
    reader = api.withKey(admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceAId, '--access', 'read']).key);
  });

  after(async () => {
    await server?.stop();
  });

  /** A workspace of its own, so workspace-wide lists (tags, rules) and batch queries see only this test's mail. */
  function freshWorkspace(): ApiClient {
    return api.withKey(createWorkspace(server.dataDir, uniqueName('ws')).key.key);
  }

  // -------------------------------------------------------------------------------------------------------
  describe('read state', () => {
    it('new messages are unread; PUT/DELETE /read flip it, and list, detail, is:read and is:unread agree', async () => {
      const inbox = await createInbox(api);
      const [first, second] = (await sendSubjects(inbox, ['read one', 'read two'])) as [string, string];
      assert.deepEqual((await listMessages(api, inbox.id)).map((message) => message.read), [false, false], 'new messages must be unread');
      assert.equal((await detailOf(api, first)).read, false);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'is:unread')), [first, second].sort());
      assert.deepEqual(await listMessages(api, inbox.id, 'is:read'), []);

      assert.deepEqual(expectOk(await put(api, `/v1/messages/${first}/read`)), { id: first, read: true });
      assert.equal((await detailOf(api, first)).read, true);
      assert.equal((await detailOf(api, second)).read, false, 'marking one message read touched another');
      const listed = await listMessages(api, inbox.id);
      assert.equal(listed.find((message) => message.id === first)?.read, true);
      assert.equal(listed.find((message) => message.id === second)?.read, false);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'is:read')), [first]);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'is:unread')), [second]);
      // The operator value is case-insensitive, and negation agrees with the opposite state.
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'IS:READ')), [first]);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, '-is:read')), [second]);

      // Marking read twice is fine and still reports read.
      assert.deepEqual(expectOk(await put(api, `/v1/messages/${first}/read`)), { id: first, read: true });

      assert.deepEqual(expectOk(await api.delete(`/v1/messages/${first}/read`)), { id: first, read: false });
      assert.equal((await detailOf(api, first)).read, false);
      assert.deepEqual(await listMessages(api, inbox.id, 'is:read'), []);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'is:unread')), [first, second].sort());
    });

    it("another workspace's message answers 404 to PUT/DELETE /read and keeps its state; a read key gets 403", async () => {
      const [foreign] = (await sendSubjects(inboxB, ['foreign read'])) as [string];
      expectError(await put(api, `/v1/messages/${foreign}/read`), 404, 'not_found', 'mark B message read with A key');
      assert.equal((await detailOf(apiB, foreign)).read, false, "A's key marked B's message read");
      expectOk(await put(apiB, `/v1/messages/${foreign}/read`));
      expectError(await api.delete(`/v1/messages/${foreign}/read`), 404, 'not_found', 'mark B message unread with A key');
      assert.equal((await detailOf(apiB, foreign)).read, true, "A's key marked B's message unread");

      const inbox = await createInbox(api);
      const [own] = (await sendSubjects(inbox, ['own read'])) as [string];
      expectError(await put(reader, `/v1/messages/${own}/read`), 403, 'read_only_key');
      assert.equal((await detailOf(api, own)).read, false, 'a read key marked a message read');
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('DELETE /v1/messages/{id}', () => {
    it('deletes one message: {deleted_messages: 1}, then 404 for detail, raw and a second delete; message_count drops', async () => {
      const inbox = await createInbox(api);
      const [doomed, kept] = (await sendSubjects(inbox, ['delete me', 'keep me'])) as [string, string];
      assert.equal(await inboxCount(api, inbox.id), 2);
      // Positive control: the raw source exists before the delete.
      assert.equal((await api.get(`/v1/messages/${doomed}/raw`)).status, 200);

      assert.deepEqual(expectOk(await api.delete(`/v1/messages/${doomed}`)), { deleted_messages: 1 });
      await assertMessageGone(api, inbox.id, doomed);
      expectError(await api.delete(`/v1/messages/${doomed}`), 404, 'not_found', 'deleting twice');
      expectError(await put(api, `/v1/messages/${doomed}/read`), 404, 'not_found', 'marking a deleted message read');
      assert.equal(await inboxCount(api, inbox.id), 1);
      assert.deepEqual(idsOf(await listMessages(api, inbox.id)), [kept]);
      assert.equal((await detailOf(api, kept)).subject, 'keep me');
    });

    it("another workspace's message answers 404 and is untouched", async () => {
      const [foreign] = (await sendSubjects(inboxB, ['foreign delete'])) as [string];
      const countBefore = await inboxCount(apiB, inboxB.id);
      expectError(await api.delete(`/v1/messages/${foreign}`), 404, 'not_found', "A's key deleting B's message");
      assert.equal((await detailOf(apiB, foreign)).subject, 'foreign delete');
      assert.equal((await apiB.get(`/v1/messages/${foreign}/raw`)).status, 200, "the raw source of B's message went missing");
      assert.equal(await inboxCount(apiB, inboxB.id), countBefore);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('per-message tags', () => {
    let inbox: InboxWithCredentialsJson;

    before(async () => {
      inbox = await createInbox(api);
    });

    it('POST adds one tag folded to lower case and returns the stored name; adding it again keeps one', async () => {
      const [id] = (await sendSubjects(inbox, ['tag add'])) as [string];
      assert.deepEqual((await detailOf(api, id)).tags, [], 'a new message has no tags');
      assert.deepEqual(expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: 'Urgent' })), { tag: 'urgent' });
      assert.deepEqual((await detailOf(api, id)).tags, ['urgent']);
      assert.deepEqual(expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: 'URGENT' })), { tag: 'urgent' });
      assert.deepEqual(expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: 'later' })), { tag: 'later' });
      assert.deepEqual((await detailOf(api, id)).tags, ['later', 'urgent'], 'tags are one per name, sorted');
      const summary = (await listMessages(api, inbox.id)).find((message) => message.id === id);
      assert.deepEqual(summary?.tags, ['later', 'urgent'], 'the list shows the same tags');
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'tag:URGENT')), [id], 'tag: is case-insensitive');
    });

    it('PUT replaces the tags: lower case, sorted, duplicates removed; [] clears them', async () => {
      const [id] = (await sendSubjects(inbox, ['tag set'])) as [string];
      expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: 'old' }));
      assert.deepEqual(await setTags(api, id, ['zeta', 'Beta', 'beta', 'ALPHA', 'zeta']), ['alpha', 'beta', 'zeta']);
      assert.deepEqual((await detailOf(api, id)).tags, ['alpha', 'beta', 'zeta'], "the old tag survived a replace");
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'tag:old')), []);
      assert.deepEqual(await setTags(api, id, []), []);
      assert.deepEqual((await detailOf(api, id)).tags, []);
      assert.ok(!idsOf(await listMessages(api, inbox.id, 'is:tagged')).includes(id), 'an untagged message matches is:tagged');
    });

    it('DELETE /tags/{name} removes one URL-encoded tag, case-insensitively; a tag the message lacks answers 404', async () => {
      const [id, other] = (await sendSubjects(inbox, ['tag remove', 'tag remove other'])) as [string, string];
      await setTags(api, id, ['needs review', 'team/backend', 'c++', '#hash', 'keep']);
      await setTags(api, other, ['only-here']);
      assert.deepEqual(expectOk(await api.delete(`/v1/messages/${id}/tags/needs%20review`)), { removed: 'needs review' });
      assert.deepEqual((await detailOf(api, id)).tags, ['#hash', 'c++', 'keep', 'team/backend']);
      // An encoded slash, plus and hash are part of the name, not of the path or a fragment.
      for (const name of ['team/backend', 'c++', '#hash']) {
        assert.deepEqual(expectOk(await api.delete(`/v1/messages/${id}/tags/${encodeURIComponent(name)}`)), { removed: name }, name);
      }
      assert.deepEqual(expectOk(await api.delete(`/v1/messages/${id}/tags/KEEP`)), { removed: 'keep' }, 'names compare case-insensitively');
      assert.deepEqual((await detailOf(api, id)).tags, []);

      // Not on this message (but on another one), already removed, never existed: 404, nothing changes.
      await setTags(api, id, ['stays']);
      expectError(await api.delete(`/v1/messages/${id}/tags/only-here`), 404, 'not_found', 'tag of another message');
      expectError(await api.delete(`/v1/messages/${id}/tags/keep`), 404, 'not_found', 'tag removed before');
      expectError(await api.delete(`/v1/messages/${id}/tags/never-used`), 404, 'not_found', 'unknown tag');
      assert.deepEqual((await detailOf(api, id)).tags, ['stays']);
      assert.deepEqual((await detailOf(api, other)).tags, ['only-here']);
    });

    it('invalid tag names answer 400 invalid_request naming the field and change nothing', async () => {
      const [id] = (await sendSubjects(inbox, ['tag invalid'])) as [string];
      await setTags(api, id, ['original']);
      const invalid: [string, string][] = [
        ['a leading -', '-negated'],
        ['a leading !', '!negated'],
        ['a comma', 'a,b'],
        ['a double quote', 'say "hi"'],
        ['a single quote', "it's"],
        ['an opening parenthesis', 'a(b'],
        ['a closing parenthesis', 'a)b'],
        ['65 characters', 'x'.repeat(65)],
        ['a double space', 'two  spaces'],
        ['a leading space', ' lead'],
        ['a trailing space', 'trail '],
        ['a control character', 'bell\u0007'],
        ['a tab', 'tab\there'],
        ['a newline', 'line\nbreak'],
        ['the empty string', ''],
      ];
      for (const [label, name] of invalid) {
        const single = expectError(await api.post(`/v1/messages/${id}/tags`, { tag: name }), 400, 'invalid_request', `POST tag with ${label}`);
        assert.match(single, /\btag\b/, `POST tag with ${label}: the message does not name the field: ${single}`);
        const many = expectError(await put(api, `/v1/messages/${id}/tags`, { tags: ['fine', name] }), 400, 'invalid_request', `PUT tags with ${label}`);
        assert.match(many, /\btags\b/, `PUT tags with ${label}: the message does not name the field: ${many}`);
      }
      // All or nothing: the valid 'fine' of the refused PUTs was not stored either.
      assert.deepEqual((await detailOf(api, id)).tags, ['original']);
    });

    it('accepts 64 characters and tags in any script (lower-cased, searchable, removable by their encoded name)', async () => {
      const [id] = (await sendSubjects(inbox, ['tag unicode'])) as [string];
      const longest = 'y'.repeat(64);
      assert.deepEqual(expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: longest })), { tag: longest });
      const unicode: [string, string][] = [['Ωμέγα', 'ωμέγα'], ['ÜBER', 'über'], ['标签', '标签'], ['Café:β/1', 'café:β/1'], ['@me', '@me'], ['_x.y-z', '_x.y-z']];
      for (const [given, stored] of unicode) {
        assert.deepEqual(expectOk(await api.post(`/v1/messages/${id}/tags`, { tag: given })), { tag: stored }, given);
      }
      const expected = [longest, ...unicode.map(([, stored]) => stored)];
      assert.deepEqual([...(await detailOf(api, id)).tags].sort(), [...expected].sort());
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'tag:ΩΜΈΓΑ')), [id], 'tag: folds non-ASCII case');
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, 'tag:"café:β/1"')), [id]);
      for (const [, stored] of unicode) {
        assert.deepEqual(expectOk(await api.delete(`/v1/messages/${id}/tags/${encodeURIComponent(stored)}`)), { removed: stored }, stored);
      }
      assert.deepEqual((await detailOf(api, id)).tags, [longest]);
    });

    it('the name the server returns for a tag whose lower case is longer (İ) addresses that tag again and stays within 64 characters', async () => {
      // 'İ' (U+0130) lower-cases to 'i' plus U+0307 COMBINING DOT ABOVE: the stored name is one character longer
      // and holds a mark, which TagName does not allow. The server hands that name out (POST, GET /v1/tags), so it
      // must accept it back in the paths that take a tag name.
      const [id] = (await sendSubjects(inbox, ['tag dotted i'])) as [string];
      const stored = expectOk<{ tag: string }>(await api.post(`/v1/messages/${id}/tags`, { tag: 'İstanbul' })).tag;
      assert.ok((await listTags(api)).some((tag) => tag.name === stored), 'the stored name is what GET /v1/tags lists');
      assert.deepEqual(idsOf(await listMessages(api, inbox.id, `tag:${stored}`)), [id]);
      expectOk(await put(api, `/v1/tags/${encodeURIComponent(stored)}`, { color: '#abc' }), 200, `recolour by the stored name ${JSON.stringify(stored)}`);
      assert.deepEqual(expectOk(await api.delete(`/v1/messages/${id}/tags/${encodeURIComponent(stored)}`), 200, `remove by the stored name ${JSON.stringify(stored)}`), { removed: stored });

      const long = await api.post(`/v1/messages/${id}/tags`, { tag: 'İ'.repeat(64) });
      if (long.status === 200) {
        const longStored = expectOk<{ tag: string }>(long).tag;
        assert.ok([...longStored].length <= 64, `64 × 'İ' was stored as ${[...longStored].length} characters, over TagName's 64`);
      } else {
        expectError(long, 400, 'invalid_request', "64 × 'İ'");
      }
    });

    it("another workspace's message answers 404 to POST, PUT and DELETE of tags, and keeps its tags", async () => {
      const [foreign] = (await sendSubjects(inboxB, ['foreign tags'])) as [string];
      await setTags(apiB, foreign, ['theirs']);
      expectError(await api.post(`/v1/messages/${foreign}/tags`, { tag: 'mine' }), 404, 'not_found');
      expectError(await put(api, `/v1/messages/${foreign}/tags`, { tags: ['mine'] }), 404, 'not_found');
      expectError(await api.delete(`/v1/messages/${foreign}/tags/theirs`), 404, 'not_found');
      assert.deepEqual((await detailOf(apiB, foreign)).tags, ['theirs']);
      assert.ok(!(await listTags(api)).some((tag) => tag.name === 'theirs' || tag.name === 'mine'), "B's tag leaked into A's tag list");
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('workspace tags: GET, PUT and DELETE /v1/tags', () => {
    it('lists every tag by name with its exact message count and a deterministic automatic colour', async () => {
      const ws = freshWorkspace();
      assert.deepEqual(await listTags(ws), [], 'a fresh workspace has no tags');
      const inbox = await createInbox(ws);
      // The third message stays untagged: it must not count anywhere.
      const [m1, m2] = (await sendSubjects(inbox, ['one', 'two', 'three'])) as [string, string];
      await setTags(ws, m1, ['alpha', 'beta']);
      await setTags(ws, m2, ['alpha']);

      const tags = await listTags(ws);
      assert.deepEqual(tags.map(({ name, message_count, custom_color }) => ({ name, message_count, custom_color })), [
        { name: 'alpha', message_count: 2, custom_color: false },
        { name: 'beta', message_count: 1, custom_color: false },
      ]);
      for (const tag of tags) assert.ok(tag.color.trim().length > 0, `${tag.name} has no colour`);
      // Deterministic: the same name has the same colour on every call and in every workspace.
      assert.deepEqual(await listTags(ws), tags);
      const elsewhere = freshWorkspace();
      const [elsewhereId] = (await sendSubjects(await createInbox(elsewhere), ['elsewhere'])) as [string];
      await setTags(elsewhere, elsewhereId, ['beta']);
      assert.equal((await tagNamed(elsewhere, 'beta'))?.color, tags[1]!.color, 'the automatic colour depends on more than the name');

      // Counts follow changes: removing a tag from a message and deleting a message both lower them.
      expectOk(await ws.delete(`/v1/messages/${m1}/tags/beta`));
      expectOk(await ws.delete(`/v1/messages/${m2}`));
      assert.deepEqual((await listTags(ws)).map(({ name, message_count }) => ({ name, message_count })), [{ name: 'alpha', message_count: 1 }]);
    });

    it('recolours with any CSS colour (custom_color true), refuses other strings with 400, and "" restores the automatic colour', async () => {
      const ws = freshWorkspace();
      const [id] = (await sendSubjects(await createInbox(ws), ['colour'])) as [string];
      await setTags(ws, id, ['paint']);
      const automatic = (await tagNamed(ws, 'paint'))!;
      assert.equal(automatic.custom_color, false);

      for (const color of ['#abc', 'rebeccapurple', 'rgb(1 2 3)', 'hsl(120 50% 50%)', '#a1b2c3', 'rgba(1, 2, 3, 0.5)']) {
        assert.deepEqual(expectOk(await put(ws, '/v1/tags/paint', { color }), 200, `colour ${color}`), { old_name: 'paint', name: 'paint', color });
        assert.deepEqual(await tagNamed(ws, 'paint'), { name: 'paint', color, custom_color: true, message_count: 1 }, `after colour ${color}`);
      }
      for (const color of ['notacolor', '#ggg', '#abcde', 'rgb(1 2)', '12345', 'red;', 'url(x)', ' ', 'javascript:alert(1)']) {
        const message = expectError(await put(ws, '/v1/tags/paint', { color }), 400, 'invalid_request', `colour ${JSON.stringify(color)}`);
        assert.match(message, /\bcolou?r\b/, message);
      }
      assert.equal((await tagNamed(ws, 'paint'))?.color, 'rgba(1, 2, 3, 0.5)', 'a refused colour changed the tag');

      assert.deepEqual(expectOk(await put(ws, '/v1/tags/PAINT', { color: '' })), { old_name: 'paint', name: 'paint', color: automatic.color });
      assert.deepEqual(await tagNamed(ws, 'paint'), automatic, '"" did not restore the automatic colour');
    });

    it('an unknown tag answers 404 to PUT and DELETE', async () => {
      const ws = freshWorkspace();
      const [id] = (await sendSubjects(await createInbox(ws), ['unknown'])) as [string];
      await setTags(ws, id, ['known']);
      expectError(await put(ws, '/v1/tags/unknown', { color: '#abc' }), 404, 'not_found', 'recolour unknown');
      expectError(await put(ws, '/v1/tags/unknown', { name: 'other' }), 404, 'not_found', 'rename unknown');
      expectError(await ws.delete('/v1/tags/unknown'), 404, 'not_found', 'delete unknown');
      // A tag of another workspace is unknown here too.
      expectError(await api.delete('/v1/tags/known'), 404, 'not_found', "deleting another workspace's tag");
      assert.deepEqual((await listTags(ws)).map((tag) => tag.name), ['known']);
      assert.deepEqual((await detailOf(ws, id)).tags, ['known']);
    });

    it('rename applies to every message that has the tag (detail, tag: query, list)', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const [m1, m2, m3] = (await sendSubjects(inbox, ['r1', 'r2', 'r3'])) as [string, string, string];
      await setTags(ws, m1, ['old name', 'other']);
      await setTags(ws, m2, ['old name']);
      await setTags(ws, m3, ['other']);

      const renamed = expectOk<{ old_name: string; name: string; color: string }>(await put(ws, '/v1/tags/old%20name', { name: 'New Name' }));
      assert.equal(renamed.old_name, 'old name');
      assert.equal(renamed.name, 'new name', 'the new name is stored in lower case');
      assert.equal(renamed.color, (await tagNamed(ws, 'new name'))?.color);

      assert.deepEqual((await detailOf(ws, m1)).tags, ['new name', 'other']);
      assert.deepEqual((await detailOf(ws, m2)).tags, ['new name']);
      assert.deepEqual((await detailOf(ws, m3)).tags, ['other']);
      assert.deepEqual(idsOf(await listMessages(ws, inbox.id, 'tag:"new name"')), [m1, m2].sort());
      assert.deepEqual(await listMessages(ws, inbox.id, 'tag:"old name"'), []);
      assert.deepEqual((await listTags(ws)).map(({ name, message_count }) => ({ name, message_count })), [
        { name: 'new name', message_count: 2 },
        { name: 'other', message_count: 2 },
      ]);
      expectError(await put(ws, '/v1/tags/old%20name', { color: '#abc' }), 404, 'not_found', 'the old name after a rename');
      // A chosen colour moves with the tag.
      expectOk(await put(ws, '/v1/tags/other', { color: '#0a0b0c' }));
      assert.deepEqual(expectOk(await put(ws, '/v1/tags/other', { name: 'renamed other' })), { old_name: 'other', name: 'renamed other', color: '#0a0b0c' });
      assert.deepEqual(await tagNamed(ws, 'renamed other'), { name: 'renamed other', color: '#0a0b0c', custom_color: true, message_count: 2 });
      assert.equal(await tagNamed(ws, 'other'), undefined, 'the old name is still listed');
      // An invalid new name is refused and nothing is renamed.
      const message = expectError(await put(ws, '/v1/tags/new%20name', { name: 'bad,name' }), 400, 'invalid_request');
      assert.match(message, /\bname\b/, message);
      assert.deepEqual((await detailOf(ws, m2)).tags, ['new name']);
    });

    it('renaming onto an existing tag merges: counts are the union, a message with both keeps one, the target colour wins', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const [both, onlySource, onlyTarget, neither] = (await sendSubjects(inbox, ['both', 'source', 'target', 'neither'])) as [string, string, string, string];
      await setTags(ws, both, ['source', 'target']);
      await setTags(ws, onlySource, ['source']);
      await setTags(ws, onlyTarget, ['target', 'z-extra']);
      expectOk(await put(ws, '/v1/tags/source', { color: '#111111' }));
      expectOk(await put(ws, '/v1/tags/target', { color: '#222222' }));

      assert.deepEqual(expectOk(await put(ws, '/v1/tags/source', { name: 'target' })), { old_name: 'source', name: 'target', color: '#222222' });
      assert.deepEqual(await listTags(ws), [
        { name: 'target', color: '#222222', custom_color: true, message_count: 3 },
        { name: 'z-extra', color: (await tagNamed(ws, 'z-extra'))!.color, custom_color: false, message_count: 1 },
      ]);
      assert.deepEqual((await detailOf(ws, both)).tags, ['target'], 'a message with both tags must keep exactly one');
      assert.deepEqual((await detailOf(ws, onlySource)).tags, ['target']);
      assert.deepEqual((await detailOf(ws, onlyTarget)).tags, ['target', 'z-extra']);
      assert.deepEqual((await detailOf(ws, neither)).tags, []);
      assert.deepEqual(idsOf(await listMessages(ws, inbox.id, 'tag:target')), [both, onlySource, onlyTarget].sort());
    });

    it('DELETE removes the tag from every message, the messages stay; a second DELETE answers 404', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const [m1, m2, m3] = (await sendSubjects(inbox, ['d1', 'd2', 'd3'])) as [string, string, string];
      await setTags(ws, m1, ['doomed', 'kept']);
      await setTags(ws, m2, ['doomed']);
      await setTags(ws, m3, ['kept']);
      expectOk(await put(ws, '/v1/tags/doomed', { color: 'rebeccapurple' }));

      assert.deepEqual(expectOk(await ws.delete('/v1/tags/DOOMED')), { deleted: 'doomed' });
      assert.deepEqual((await detailOf(ws, m1)).tags, ['kept']);
      assert.deepEqual((await detailOf(ws, m2)).tags, []);
      assert.deepEqual((await detailOf(ws, m3)).tags, ['kept']);
      assert.equal(await inboxCount(ws, inbox.id), 3, 'deleting a tag deleted messages');
      assert.deepEqual(await listMessages(ws, inbox.id, 'tag:doomed'), []);
      assert.deepEqual((await listTags(ws)).map((tag) => tag.name), ['kept']);
      expectError(await ws.delete('/v1/tags/doomed'), 404, 'not_found', 'second delete');

      // The chosen colour went with the tag: used again, it starts with the automatic colour.
      await setTags(ws, m2, ['doomed']);
      assert.equal((await tagNamed(ws, 'doomed'))?.custom_color, false);
    });

    it('a read key gets 403 on PUT and DELETE and the tag is unchanged', async () => {
      const inbox = await createInbox(api);
      const [id] = (await sendSubjects(inbox, ['read key tags'])) as [string];
      const name = uniqueName('guarded');
      await setTags(api, id, [name]);
      const before = await tagNamed(api, name);
      expectError(await put(reader, `/v1/tags/${name}`, { color: '#abc' }), 403, 'read_only_key');
      expectError(await put(reader, `/v1/tags/${name}`, { name: 'renamed-by-reader' }), 403, 'read_only_key');
      expectError(await reader.delete(`/v1/tags/${name}`), 403, 'read_only_key');
      expectError(await reader.post(`/v1/messages/${id}/tags`, { tag: 'by-reader' }), 403, 'read_only_key');
      assert.deepEqual(await tagNamed(api, name), before);
      assert.deepEqual((await detailOf(api, id)).tags, [name]);
      // GET is allowed for a read key and shows the same list.
      assert.deepEqual(expectOk(await reader.get('/v1/tags')), await listTags(api));
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('tag rules', () => {
    it('POST creates (201, inbox_id null by default, tags lower-cased), GET lists oldest first and filters by inbox_id', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), []);
      const started = Date.now();
      const rule = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { query: 'subject:invoice', tags: ['Billing', 'billing', 'FINANCE'] }), 201);
      assert.match(rule.id, /\S/);
      assert.equal(rule.inbox_id, null);
      assert.equal(rule.query, 'subject:invoice');
      assert.deepEqual([...rule.tags].sort(), ['billing', 'finance'], 'tags must be lower-cased and one per name');
      assert.ok(Math.abs(Date.parse(rule.created_at) - started) < 60_000, `created_at ${rule.created_at} is not now`);

      const scoped = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { inbox_id: inbox.id, query: '', tags: ['everything'] }), 201);
      assert.equal(scoped.inbox_id, inbox.id);
      assert.equal(scoped.query, '');
      const explicitNull = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { inbox_id: null, query: 'from:x', tags: ['x'] }), 201);
      assert.equal(explicitNull.inbox_id, null);

      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), [rule, scoped, explicitNull]);
      assert.deepEqual(expectOk(await ws.get(`/v1/tag-rules?inbox_id=${inbox.id}`)), [scoped]);
      // Another workspace sees none of them.
      assert.ok(!expectOk<TagRuleJson[]>(await api.get('/v1/tag-rules')).some((listed) => [rule.id, scoped.id].includes(listed.id)));
    });

    it('PUT replaces inbox, query and tags and keeps id and created_at; DELETE removes; both answer 404 afterwards', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const rule = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { query: 'subject:a', tags: ['a'] }), 201);
      const replaced = expectOk<TagRuleJson>(await put(ws, `/v1/tag-rules/${rule.id}`, { inbox_id: inbox.id, query: 'subject:b', tags: ['B'] }));
      assert.deepEqual(replaced, { id: rule.id, inbox_id: inbox.id, query: 'subject:b', tags: ['b'], created_at: rule.created_at });
      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), [replaced]);
      // Omitting inbox_id replaces it with "every inbox" (PUT replaces the whole rule).
      const widened = expectOk<TagRuleJson>(await put(ws, `/v1/tag-rules/${rule.id}`, { query: 'subject:c', tags: ['c'] }));
      assert.equal(widened.inbox_id, null);
      assert.equal(widened.created_at, rule.created_at);

      assert.deepEqual(expectOk(await ws.delete(`/v1/tag-rules/${rule.id}`)), { deleted: rule.id });
      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), []);
      expectError(await ws.delete(`/v1/tag-rules/${rule.id}`), 404, 'not_found', 'second delete');
      expectError(await put(ws, `/v1/tag-rules/${rule.id}`, { query: '', tags: ['x'] }), 404, 'not_found', 'replace a deleted rule');
      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), [], 'PUT of a deleted rule re-created it');
    });

    it('refuses an invalid query with 400 invalid_query, an unknown inbox with 404, bad tags with 400; nothing is stored', async () => {
      const ws = freshWorkspace();
      const rule = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { query: 'subject:keep', tags: ['keep'] }), 201);
      const pastTextLimits = Array.from({ length: 17 }, (_, i) => `-word${i}`).join(' ');
      for (const query of ['larger:abc', 'subject:"open', '(unbalanced', 'a OR', 'is:starred', '-', pastTextLimits, 'ab cd ef gh ij']) {
        expectError(await ws.post('/v1/tag-rules', { query, tags: ['x'] }), 400, 'invalid_query', `POST query ${query}`);
        expectError(await put(ws, `/v1/tag-rules/${rule.id}`, { query, tags: ['x'] }), 400, 'invalid_query', `PUT query ${query}`);
      }
      const foreignInbox = inboxB.id;
      for (const inboxId of ['inbox_doesnotexist', foreignInbox]) {
        expectError(await ws.post('/v1/tag-rules', { inbox_id: inboxId, query: '', tags: ['x'] }), 404, 'not_found', `POST inbox ${inboxId}`);
        expectError(await put(ws, `/v1/tag-rules/${rule.id}`, { inbox_id: inboxId, query: '', tags: ['x'] }), 404, 'not_found', `PUT inbox ${inboxId}`);
      }
      for (const tags of [[], ['bad,tag'], ['-neg'], ['x'.repeat(65)]]) {
        expectError(await ws.post('/v1/tag-rules', { query: '', tags }), 400, 'invalid_request', `tags ${JSON.stringify(tags)}`);
      }
      expectError(await ws.post('/v1/tag-rules', { query: '' }), 400, 'invalid_request', 'no tags');
      expectError(await ws.post('/v1/tag-rules', { tags: ['x'] }), 400, 'invalid_request', 'no query');
      expectError(await reader.post('/v1/tag-rules', { query: '', tags: ['x'] }), 403, 'read_only_key', 'read key');
      assert.deepEqual(expectOk(await ws.get('/v1/tag-rules')), [rule], 'a refused request stored or changed a rule');
    });

    it('rules tag matching messages on arrival (list and detail already carry the tag); inbox-scoped rules only their inbox', async () => {
      const ws = freshWorkspace();
      const inbox1 = await createInbox(ws);
      const inbox2 = await createInbox(ws);
      expectOk(await ws.post('/v1/tag-rules', { query: 'subject:invoice', tags: ['Billing'] }), 201);
      expectOk(await ws.post('/v1/tag-rules', { inbox_id: inbox1.id, query: '', tags: ['inbox-one'] }), 201);
      expectOk(await ws.post('/v1/tag-rules', { query: 'subject:invoice -from:app@example.com', tags: ['never'] }), 201);

      const [invoice1, hello1] = (await sendSubjects(inbox1, ['Invoice 42', 'hello'])) as [string, string];
      const [invoice2, hello2] = (await sendSubjects(inbox2, ['Your INVOICE 43', 'hello again'])) as [string, string];
      // Straight after the 250 reply: no waiting, the tags were there before the message became visible.
      const tagsIn = async (inboxId: string) => Object.fromEntries((await listMessages(ws, inboxId)).map((message) => [message.id, message.tags]));
      assert.deepEqual(await tagsIn(inbox1.id), { [invoice1]: ['billing', 'inbox-one'], [hello1]: ['inbox-one'] });
      assert.deepEqual(await tagsIn(inbox2.id), { [invoice2]: ['billing'], [hello2]: [] });
      assert.deepEqual((await detailOf(ws, invoice1)).tags, ['billing', 'inbox-one']);
      assert.deepEqual((await detailOf(ws, hello2)).tags, []);
      assert.deepEqual(idsOf(await listMessages(ws, inbox2.id, 'tag:billing')), [invoice2]);
      assert.deepEqual((await listTags(ws)).map(({ name, message_count }) => ({ name, message_count })), [
        { name: 'billing', message_count: 2 },
        { name: 'inbox-one', message_count: 2 },
      ]);
    });

    it('a rule does not touch messages stored before it; deleting a rule keeps the tags it gave and stops tagging', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const [before] = (await sendSubjects(inbox, ['alert before'])) as [string];
      const rule = expectOk<TagRuleJson>(await ws.post('/v1/tag-rules', { query: 'subject:alert', tags: ['alerting'] }), 201);
      assert.deepEqual((await detailOf(ws, before)).tags, [], 'a new rule tagged a message stored before it');

      const [during] = (await sendSubjects(inbox, ['alert during'])) as [string];
      assert.deepEqual((await detailOf(ws, during)).tags, ['alerting']);

      // Replacing the rule does not re-run it either.
      expectOk(await put(ws, `/v1/tag-rules/${rule.id}`, { query: 'subject:alert', tags: ['paging'] }));
      assert.deepEqual((await detailOf(ws, during)).tags, ['alerting'], 'replacing a rule changed tags it gave earlier');
      assert.deepEqual((await detailOf(ws, before)).tags, []);

      expectOk(await ws.delete(`/v1/tag-rules/${rule.id}`));
      const [after] = (await sendSubjects(inbox, ['alert after'])) as [string];
      assert.deepEqual((await detailOf(ws, during)).tags, ['alerting'], 'deleting a rule removed the tags it gave');
      assert.deepEqual((await detailOf(ws, after)).tags, [], 'a deleted rule still tags');
    });

    it('rules match on arrival exactly as the same q matches in the list (senders, body text, phrases, case folding, OR, negation, attachments, size)', async () => {
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      const rules: [string, string][] = [
        ['r-from', 'from:billing'],
        ['r-body', 'refund'],
        ['r-fold', 'ÉCOLE'],
        ['r-phrase', '"refund   request"'],
        ['r-url', 'https://example.com/menu'],
        ['r-html', 'subject:invoice due'],
        ['r-attach', 'has:attachment'],
        ['r-size', 'larger:2k'],
        ['r-or', '-from:billing (subject:cpu OR subject:lunch)'],
        ['r-to', 'to:someone-else'],
        ['r-unread', 'is:unread -is:tagged'],
      ];
      for (const [tag, query] of rules) expectOk(await ws.post('/v1/tag-rules', { query, tags: [tag] }), 201, `rule ${query}`);
      const [receipt, cpu, lunch, invoice] = (await sendMailsTo(inbox, [
        { from: 'billing@shop.example', subject: 'Your receipt', text: 'Thanks for the refund request.' },
        { from: 'alerts@monitor.example', subject: 'CPU high', text: "l'école server is overloaded", attachments: [{ filename: 'log.txt', content: 'x'.repeat(4096) }] },
        { from: 'friend@mail.example', subject: 'Lunch?', text: 'menu: https://example.com/menu', cc: 'someone-else@example.com' },
        { from: 'billing@shop.example', subject: 'Invoice 7', html: '<p>Total <b>due</b> today</p>' },
      ])) as [string, string, string, string];
      const expected: Record<string, string[]> = {
        'r-from': [receipt, invoice],
        'r-body': [receipt],
        'r-fold': [cpu],
        'r-phrase': [receipt],
        'r-url': [lunch],
        'r-html': [invoice],
        'r-attach': [cpu],
        'r-size': [cpu],
        'r-or': [cpu, lunch],
        'r-to': [lunch],
        // Rules see the message before any rule tagged it, so is:tagged is false for every new message.
        'r-unread': [receipt, cpu, lunch, invoice],
      };
      for (const [tag, query] of rules) {
        const tagged = idsOf(await listMessages(ws, inbox.id, `tag:${tag}`));
        assert.deepEqual(tagged, [...expected[tag]!].sort(), `rule '${query}' tagged the wrong messages`);
        if (tag === 'r-unread') continue; // every message is tagged by now, so the list would answer differently
        assert.deepEqual(idsOf(await listMessages(ws, inbox.id, query)), tagged, `rule '${query}' and q='${query}' disagree`);
      }
    });

    it('a rule sees the tags a send request gives (they are applied at capture, before rules add theirs)', async () => {
      // openapi.yaml, sendMessage: "`tags` are applied at capture, before tag rules add theirs."
      const ws = freshWorkspace();
      const inbox = await createInbox(ws);
      expectOk(await ws.post('/v1/tag-rules', { query: 'tag:vip', tags: ['escalate'] }), 201);
      expectOk(await ws.post('/v1/tag-rules', { query: 'subject:welcome', tags: ['onboarding'] }), 201);
      const sent = expectOk<{ id: string }>(await ws.post(`/v1/inboxes/${inbox.id}/send`, {
        from: { email: 'app@example.com' }, to: [{ email: 'user@example.com' }], subject: 'Welcome', text: 'hi', tags: ['VIP'],
      }), 201).id;
      // Positive control for the rule path itself: the subject rule fires on the same message.
      const tags = (await detailOf(ws, sent)).tags;
      assert.ok(tags.includes('onboarding') && tags.includes('vip'), `tags ${JSON.stringify(tags)}`);
      assert.deepEqual(tags, ['escalate', 'onboarding', 'vip'], 'the tag:vip rule did not see the tag given by the send request');
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('POST /v1/messages/batch', () => {
    /** A fresh workspace with two inboxes: alpha 1, alpha 2, beta 1, beta 2 in the first, alpha 3 in the second. */
    async function batchFixture() {
      const ws = freshWorkspace();
      const inbox1 = await createInbox(ws);
      const inbox2 = await createInbox(ws);
      const [alpha1, alpha2, beta1, beta2] = (await sendSubjects(inbox1, ['alpha 1', 'alpha 2', 'beta 1', 'beta 2'])) as [string, string, string, string];
      const [alpha3] = (await sendSubjects(inbox2, ['alpha 3'])) as [string];
      return { ws, inbox1, inbox2, alpha1, alpha2, alpha3, beta1, beta2, all: [alpha1, alpha2, beta1, beta2, alpha3] };
    }

    const readIds = async (ws: ApiClient, ids: string[]) => (await snapshot(ws, ids)).filter((message) => message.read).map((message) => message.id).sort();

    it('by ids: read and unread count only messages whose state changed', async () => {
      const { ws, alpha1, alpha2, beta1, beta2 } = await batchFixture();
      expectOk(await put(ws, `/v1/messages/${alpha1}/read`));
      assert.equal(await batch(ws, { action: 'read', ids: [alpha1, alpha2, beta1] }), 2, 'one of the three was already read');
      assert.deepEqual(await readIds(ws, [alpha1, alpha2, beta1, beta2]), [alpha1, alpha2, beta1].sort());
      assert.equal(await batch(ws, { action: 'read', ids: [alpha1, alpha2, beta1] }), 0, 'nothing left to change');
      // A repeated id is one message.
      assert.equal(await batch(ws, { action: 'unread', ids: [alpha1, alpha1, beta2] }), 1);
      assert.deepEqual(await readIds(ws, [alpha1, alpha2, beta1, beta2]), [alpha2, beta1].sort());
      assert.equal(await batch(ws, { action: 'unread', ids: [alpha1, alpha2, beta1, beta2] }), 2);
      assert.deepEqual(await readIds(ws, [alpha1, alpha2, beta1, beta2]), []);
    });

    it('by query across the workspace, and narrowed by inbox_id; tag and untag count exactly', async () => {
      const { ws, inbox1, inbox2, alpha1, alpha2, alpha3, beta1, beta2 } = await batchFixture();
      assert.equal(await batch(ws, { action: 'tag', query: 'subject:alpha', tags: ['A'] }), 3, 'three alpha messages in two inboxes');
      assert.deepEqual(idsOf(await listMessages(ws, inbox1.id, 'tag:a')), [alpha1, alpha2].sort());
      assert.deepEqual(idsOf(await listMessages(ws, inbox2.id, 'tag:a')), [alpha3]);
      assert.equal(await batch(ws, { action: 'tag', query: 'subject:alpha', tags: ['a'] }), 0, 'every message already had the tag');
      assert.equal(await batch(ws, { action: 'tag', query: 'subject:alpha', tags: ['a', 'b'] }), 3, 'each gains b');
      assert.equal(await batch(ws, { action: 'tag', query: 'subject:alpha', tags: ['b', 'c'] }), 3, 'each gains c (already has b)');
      assert.deepEqual((await detailOf(ws, alpha1)).tags, ['a', 'b', 'c']);
      assert.deepEqual((await detailOf(ws, beta1)).tags, [], 'a non-matching message was tagged');

      assert.equal(await batch(ws, { action: 'untag', query: 'subject:alpha', inbox_id: inbox1.id, tags: ['B'] }), 2, 'only inbox 1');
      assert.deepEqual((await detailOf(ws, alpha3)).tags, ['a', 'b', 'c'], 'inbox_id did not narrow the query');
      assert.equal(await batch(ws, { action: 'untag', query: 'subject:alpha', inbox_id: inbox1.id, tags: ['b'] }), 0);
      assert.equal(await batch(ws, { action: 'untag', query: 'tag:a', tags: ['b', 'never-there'] }), 1, 'only alpha 3 still had b');
      assert.equal(await batch(ws, { action: 'untag', query: 'subject:beta', tags: ['a'] }), 0, 'untagging untagged messages');

      assert.equal(await batch(ws, { action: 'read', query: 'subject:alpha', inbox_id: inbox2.id }), 1);
      assert.deepEqual(await readIds(ws, [alpha1, alpha2, alpha3, beta1, beta2]), [alpha3]);
      assert.equal(await batch(ws, { action: 'read', query: 'is:unread' }), 4, 'is:unread selects the four unread');
      assert.equal(await batch(ws, { action: 'unread', query: 'is:read subject:beta' }), 2);
      assert.deepEqual(await readIds(ws, [alpha1, alpha2, alpha3, beta1, beta2]), [alpha1, alpha2, alpha3].sort());
    });

    it('ids and query together select only the listed ids that also match; ids with inbox_id only that inbox', async () => {
      const { ws, inbox1, alpha1, alpha2, alpha3, beta1, beta2 } = await batchFixture();
      assert.equal(await batch(ws, { action: 'tag', ids: [alpha1, beta1, beta2], query: 'subject:beta', tags: ['picked'] }), 2);
      assert.deepEqual((await detailOf(ws, alpha1)).tags, [], 'a listed id that does not match the query was tagged');
      assert.deepEqual((await detailOf(ws, alpha2)).tags, [], 'a matching message that was not listed was tagged');
      assert.deepEqual(idsOf(await listMessages(ws, inbox1.id, 'tag:picked')), [beta1, beta2].sort());

      assert.equal(await batch(ws, { action: 'read', ids: [alpha1, alpha3], inbox_id: inbox1.id }), 1);
      assert.deepEqual(await readIds(ws, [alpha1, alpha3]), [alpha1]);
      assert.equal(await batch(ws, { action: 'read', ids: [alpha2], query: 'subject:beta' }), 0, 'empty intersection');
      assert.equal((await detailOf(ws, alpha2)).read, false);
    });

    it('delete removes exactly the selected messages from list, detail and raw, and lowers message_count', async () => {
      const { ws, inbox1, inbox2, alpha1, alpha2, alpha3, beta1, beta2 } = await batchFixture();
      assert.equal(await batch(ws, { action: 'delete', ids: [alpha1, beta1, beta2], query: 'subject:beta' }), 2);
      for (const id of [beta1, beta2]) await assertMessageGone(ws, inbox1.id, id);
      assert.deepEqual(idsOf(await listMessages(ws, inbox1.id)), [alpha1, alpha2].sort());
      assert.equal(await inboxCount(ws, inbox1.id), 2);
      assert.equal(await batch(ws, { action: 'delete', ids: [beta1, beta2] }), 0, 'deleting deleted messages');

      assert.equal(await batch(ws, { action: 'delete', query: 'subject:alpha', inbox_id: inbox2.id }), 1);
      await assertMessageGone(ws, inbox2.id, alpha3);
      assert.equal(await inboxCount(ws, inbox2.id), 0);
      assert.equal(await inboxCount(ws, inbox1.id), 2, 'inbox_id did not narrow the delete');
      assert.equal(await batch(ws, { action: 'delete', query: 'subject:alpha' }), 2);
      for (const id of [alpha1, alpha2]) await assertMessageGone(ws, inbox1.id, id);
      assert.equal(await inboxCount(ws, inbox1.id), 0);
    });

    it("ignores another workspace's ids and never reaches its messages through a query", async () => {
      const { ws, alpha1 } = await batchFixture();
      const [foreign] = (await sendSubjects(inboxB, ['alpha foreign'])) as [string];
      const foreignBefore = await snapshot(apiB, [foreign]);
      for (const action of ['read', 'delete'] as const) {
        assert.equal(await batch(ws, { action, ids: [foreign] }), 0, `${action} of a foreign id`);
      }
      assert.equal(await batch(ws, { action: 'tag', ids: [foreign], tags: ['stolen'] }), 0);
      assert.equal(await batch(ws, { action: 'read', ids: [foreign, alpha1, 'msg_doesnotexist'] }), 1, 'only the own id counts');
      // The query matches B's subject too, but only this workspace is searched.
      assert.equal(await batch(ws, { action: 'tag', query: 'subject:foreign OR subject:alpha', tags: ['mine'] }), 3);
      assert.deepEqual(await snapshot(apiB, [foreign]), foreignBefore, "B's message changed");
      assert.equal((await apiB.get(`/v1/messages/${foreign}/raw`)).status, 200);
      assert.ok(!(await listTags(apiB)).some((tag) => ['stolen', 'mine'].includes(tag.name)), "B's workspace gained a tag");
    });

    it('refuses bad requests (400, 404, 403) and changes nothing', async () => {
      const { ws, inbox1, all } = await batchFixture();
      const before = await snapshot(ws, all);
      const bad: [string, unknown, number, string][] = [
        ['neither ids nor query', { action: 'read' }, 400, 'invalid_request'],
        ['only inbox_id', { action: 'delete', inbox_id: inbox1.id }, 400, 'invalid_request'],
        ['tag without tags', { action: 'tag', ids: all }, 400, 'invalid_request'],
        ['untag without tags', { action: 'untag', query: 'subject:alpha' }, 400, 'invalid_request'],
        ['tag with an empty tags array', { action: 'tag', ids: all, tags: [] }, 400, 'invalid_request'],
        ['tags with read', { action: 'read', ids: all, tags: ['x'] }, 400, 'invalid_request'],
        ['tags with unread', { action: 'unread', ids: all, tags: ['x'] }, 400, 'invalid_request'],
        ['tags with delete', { action: 'delete', ids: all, tags: ['x'] }, 400, 'invalid_request'],
        ['an invalid tag', { action: 'tag', ids: all, tags: ['bad,tag'] }, 400, 'invalid_request'],
        ['1001 ids', { action: 'delete', ids: [...all, ...Array.from({ length: 1001 - all.length }, (_, i) => `msg_filler${i}`)] }, 400, 'invalid_request'],
        ['an empty ids array', { action: 'delete', ids: [] }, 400, 'invalid_request'],
        ['an empty query', { action: 'delete', query: '' }, 400, 'invalid_request'],
        ['an unknown action', { action: 'archive', ids: all }, 400, 'invalid_request'],
        ['an unknown field', { action: 'delete', ids: all, everything: true }, 400, 'invalid_request'],
        ['an invalid query', { action: 'delete', query: 'larger:abc' }, 400, 'invalid_query'],
        ['unbalanced quotes', { action: 'delete', query: 'subject:"alpha' }, 400, 'invalid_query'],
        ['an invalid query with ids', { action: 'delete', ids: all, query: '(alpha' }, 400, 'invalid_query'],
        ['a query past the text limits', { action: 'delete', query: Array.from({ length: 200 }, (_, i) => `-z${i}`).join(' ') }, 400, 'invalid_query'],
        ['an unknown inbox_id', { action: 'delete', query: 'subject:alpha', inbox_id: 'inbox_doesnotexist' }, 404, 'not_found'],
        ["another workspace's inbox_id", { action: 'delete', ids: all, inbox_id: inboxB.id }, 404, 'not_found'],
      ];
      for (const [label, body, status, code] of bad) {
        expectError(await ws.post('/v1/messages/batch', body), status, code, label);
      }
      // The read key belongs to the default workspace; its own messages are the target here.
      const inbox = await createInbox(api);
      const [own] = (await sendSubjects(inbox, ['read key batch'])) as [string];
      expectError(await reader.post('/v1/messages/batch', { action: 'delete', ids: [own] }), 403, 'read_only_key', 'read key');
      expectError(await reader.post('/v1/messages/batch', { action: 'read', query: 'subject:"read key batch"' }), 403, 'read_only_key', 'read key by query');
      assert.equal((await detailOf(api, own)).read, false);
      assert.deepEqual(await snapshot(ws, all), before, 'a refused batch changed messages');
      assert.equal(await inboxCount(ws, inbox1.id), 4);
    });

    it('accepts exactly 1000 ids; only the existing ones count', async () => {
      const { ws, all } = await batchFixture();
      const ids = [...all, ...Array.from({ length: 1000 - all.length }, (_, i) => `msg_filler${i}`)];
      assert.equal(ids.length, 1000);
      assert.equal(await batch(ws, { action: 'read', ids }), all.length);
      assert.equal(await batch(ws, { action: 'delete', ids }), all.length);
      for (const id of all) expectError(await ws.get(`/v1/messages/${id}`), 404, 'not_found', `batch-deleted ${id}`);
    });
  });
});
