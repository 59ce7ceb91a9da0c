// End to end, both profiles: the Mailpit API's boundaries. A key reaches only its own workspace's inboxes, whatever
// the Basic user names; a read key changes nothing; one inbox's credentials never reach another inbox's mail; bad
// input of every kind gets a 4xx with a plain-text sentence (what Mailpit would answer), never a 500. And the open
// inbox: off by default; when configured, requests without credentials reach that inbox alone, never /v1.
import { strict as assert } from 'node:assert';
import { MailpitClient } from 'mailpit-api';
import { admin, createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageSummaryJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { watchMailpitAnswers, type MailpitAnswerWatch } from '../support/mailpit-contract.js';
import { pollUntil } from '../support/poll.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe(`Mailpit API: boundaries and bad input (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let watch: MailpitAnswerWatch;
  /** Workspace A (the default one) and workspace B, each with an inbox named `shared` and one of its own. */
  let keyA: string;
  let keyB: string;
  let readKeyA: string;
  let sharedA: InboxWithCredentialsJson;
  let sharedB: InboxWithCredentialsJson;
  let ownA: InboxWithCredentialsJson;
  let idA: string;
  let idB: string;
  let idOwnA: string;
  const sharedName = uniqueName('shared');

  /** A request of its own: `init.headers`, when given, is a plain record (this file writes no other). */
  type Init = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };
  const call = (path: string, authorization: string | null, init: Init = {}) =>
    fetch(`${server.httpUrl}${path}`, { ...init, headers: { ...(authorization === null ? {} : { authorization }), ...init.headers } });
  const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  before(async () => {
    server = await startServer();
    keyA = server.defaultKey!;
    const workspaceA = expectOk<{ id: string }>(await new ApiClient(server.httpUrl, keyA).get('/v1/workspace'));
    readKeyA = admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceA.id, '--access', 'read']).key;
    keyB = createWorkspace(server.dataDir, uniqueName('workspace-b')).key.key;
    const apiA = new ApiClient(server.httpUrl, keyA);
    const apiB = new ApiClient(server.httpUrl, keyB);
    [sharedA, ownA, sharedB] = [await createInbox(apiA, sharedName), await createInbox(apiA), await createInbox(apiB, sharedName)];
    [idA] = await sendMails(credentialsOf(sharedA), [{ from: 'a@attacks.test', to: 'a@attacks.test', subject: 'A secret', text: 'secret of A' }]) as [string];
    [idOwnA] = await sendMails(credentialsOf(ownA), [{ from: 'a@attacks.test', to: 'a@attacks.test', subject: 'A other inbox', text: 'other inbox of A' }]) as [string];
    [idB] = await sendMails(credentialsOf(sharedB), [{ from: 'b@attacks.test', to: 'b@attacks.test', subject: 'B secret', text: 'secret of B' }]) as [string];
    watch = watchMailpitAnswers(server.httpUrl);
  });

  afterEach(() => {
    assert.deepEqual(watch.failures.splice(0), [], 'every answer matches mailpit-api.yaml, and none is a 5xx');
  });

  after(async () => {
    watch?.stop();
    await server?.stop();
  });

  it('resolves an inbox name that two workspaces use to the key\'s own workspace', async () => {
    const asA = new MailpitClient(server.httpUrl, { auth: { username: sharedName, password: keyA } });
    const asB = new MailpitClient(server.httpUrl, { auth: { username: sharedName, password: keyB } });
    assert.deepEqual((await asA.listMessages()).messages.map((m) => m.ID), [idA]);
    assert.deepEqual((await asB.listMessages()).messages.map((m) => m.ID), [idB]);
  });

  it('never lets a key of workspace A name an inbox of workspace B, by id or by name', async () => {
    for (const user of [sharedB.id, sharedB.id.toUpperCase()]) {
      const response = await call('/api/v1/messages', basic(user, keyA));
      assert.equal(response.status, 401, user);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
      assert.doesNotMatch(await response.text(), /B secret/);
    }
    const bearer = await call('/api/v1/messages', `Bearer ${keyA}`, { headers: { 'x-sandbox-inbox': sharedB.id } });
    assert.equal(bearer.status, 401);
  });

  it('never answers one inbox\'s credentials with another inbox\'s message, in the same workspace or another', async () => {
    for (const id of [idOwnA, idB]) {
      for (const path of [`/api/v1/message/${id}`, `/api/v1/message/${id}/raw`, `/api/v1/message/${id}/headers`, `/view/${id}.txt`, `/api/v1/message/${id}/part/0`, `/api/v1/message/${id}/html-check`]) {
        const response = await call(path, basic(sharedA.id, keyA));
        assert.equal(response.status, 404, `${path}: ${response.status}`);
        assert.doesNotMatch(await response.text(), /secret|other inbox/);
      }
    }
    // Changes by IDs of another inbox's messages change nothing there.
    assert.equal((await call('/api/v1/messages', basic(sharedA.id, keyA), { method: 'DELETE', ...json({ IDs: [idOwnA, idB] }) })).status, 200);
    assert.equal((await call('/api/v1/tags', basic(sharedA.id, keyA), { method: 'PUT', ...json({ IDs: [idOwnA], Tags: ['stolen'] }) })).status, 200);
    const own = expectOk<MessageSummaryJson[]>(await new ApiClient(server.httpUrl, keyA).get(`/v1/inboxes/${ownA.id}/messages`));
    assert.deepEqual(own.map((m) => [m.id, m.tags]), [[idOwnA, []]]);
    const b = expectOk<MessageSummaryJson[]>(await new ApiClient(server.httpUrl, keyB).get(`/v1/inboxes/${sharedB.id}/messages`));
    assert.deepEqual(b.map((m) => m.id), [idB]);
  });

  it('lets a read key read, and refuses it every change with 403, changing nothing, not even the read state', async () => {
    const reader = new MailpitClient(server.httpUrl, { auth: { username: sharedName, password: readKeyA } });
    assert.equal((await reader.getMessageSummary(idA)).ID, idA);
    const changes: [string, string, Init][] = [
      ['PUT', '/api/v1/messages', json({ Read: true })],
      ['DELETE', '/api/v1/messages', {}],
      ['DELETE', '/api/v1/search?query=secret', {}],
      ['PUT', '/api/v1/tags', json({ IDs: [idA], Tags: ['x'] })],
      ['PUT', '/api/v1/chaos', json({ Sender: { ErrorCode: 451, Probability: 100 } })],
      ['POST', '/api/v1/send', json({ From: { Email: 'a@b.test' }, To: [{ Email: 'c@d.test' }], Subject: 'x' })],
    ];
    for (const [method, path, init] of changes) {
      const response = await call(path, basic(sharedName, readKeyA), { ...init, method });
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.match(await response.text(), /read-only/);
    }
    const messages = expectOk<MessageSummaryJson[]>(await new ApiClient(server.httpUrl, keyA).get(`/v1/inboxes/${sharedA.id}/messages`));
    assert.deepEqual(messages.map((m) => [m.id, m.read, m.tags]), [[idA, false, []]], 'nothing changed, and fetching did not mark it read');
  });

  it('answers missing, malformed and wrong credentials with 401 and a Basic challenge', async () => {
    const cases: (string | null)[] = [
      null, 'Basic', 'Basic !!!', `Basic ${Buffer.from('no colon').toString('base64')}`, basic('', keyA), basic(sharedName, 'sbx_api_wrong'),
      basic(sharedName, 'not-a-key'), basic('x'.repeat(300), keyA), `Bearer ${keyA}`, 'Digest abc', basic(sharedName, ''),
    ];
    for (const authorization of cases) {
      const response = await call('/api/v1/messages', authorization);
      assert.equal(response.status, 401, String(authorization));
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      assert.ok((await response.text()).length > 0);
    }
    const bearer = await call('/api/v1/messages', `Bearer ${keyA}`, { headers: { 'x-sandbox-inbox': sharedName } });
    assert.equal(bearer.status, 200, 'a bearer key with the inbox named in X-Sandbox-Inbox');
  });

  it('answers bad input as Mailpit would: lenient where it is lenient, a 4xx sentence otherwise, never a 500', async () => {
    const auth = basic(sharedA.id, keyA);
    const lenient = ['/api/v1/messages?start=abc&limit=-3', '/api/v1/messages?start=1e9x', '/api/v1/messages?unknown=1&start=0&start=5',
      `/api/v1/search?query=${encodeURIComponent('"unbalanced from: is:nothing before:yesterday')}&tz=Not/AZone`,
      `/api/v1/search?query=${encodeURIComponent('before:notadate larger:huge')}`, '/api/v1/message/latest?query=%20'];
    for (const path of lenient) assert.equal((await call(path, auth)).status, 200, path);
    const refused: [string, Init, number | number[]][] = [
      ['/api/v1/messages?start=9999&limit=50', {}, 400],
      [`/api/v1/search?query=${encodeURIComponent(Array.from({ length: 17 }, (_, i) => `word${i}`).join(' '))}`, {}, 400],
      [`/api/v1/message/latest?query=${encodeURIComponent('a b c d e f')}`, {}, 400],
      [`/api/v1/search?query=${'a'.repeat(2001)}`, {}, 400],
      [`/api/v1/message/${'x'.repeat(101)}`, {}, 400],
      ['/api/v1/message/%E0%A4%A', {}, [400, 404]],
      [`/api/v1/message/${idA}/part/x`, {}, 404],
      [`/api/v1/message/${idA}/part/99`, {}, 404],
      [`/api/v1/message/${idA}/part/0/thumb`, {}, 404],
      ['/api/v1/messages', { method: 'PUT', body: 'x'.repeat(2 * 1024 * 1024), headers: { 'content-type': 'application/json' } }, 413],
      ['/api/v1/messages', { method: 'PUT', body: '{}', headers: { 'content-type': 'text/plain' } }, 400],
      ['/api/v1/messages', { method: 'PUT', ...json({ Read: 'yes' }) }, 400],
      ['/api/v1/messages', { method: 'PUT', ...json([1, 2]) }, 400],
      ['/api/v1/messages', { method: 'DELETE', ...json({ IDs: Array.from({ length: 1001 }, (_, i) => `m${i}`) }) }, 400],
      ['/api/v1/tags', { method: 'PUT', ...json({ IDs: [idA], Tags: ['"quoted"'] }) }, 400],
      ['/api/v1/tags', { method: 'PUT' }, 400],
      ['/api/v1/tags/never-used', { method: 'DELETE' }, 400],
      ['/api/v1/tags/never-used', { method: 'PUT', ...json({ Name: 'new' }) }, 400],
      ['/api/v1/chaos', { method: 'PUT', ...json({ Sender: { ErrorCode: 200, Probability: 5 } }) }, 400],
      ['/api/v1/chaos', { method: 'PUT', ...json({ Sender: { ErrorCode: 451, Probability: 101 } }) }, 400],
      [`/api/v1/message/${idA}/release`, { method: 'POST', ...json({ To: ['x@example.com'] }) }, 400],
      ['/api/v1/send', { method: 'POST', body: '{"From":', headers: { 'content-type': 'application/json' } }, 400],
      ['/api/v1/send', { method: 'POST', ...json({ From: { Email: 'a@b.test' }, To: [{ Email: 'c@d.test' }], Attachments: [{ Filename: 'a', Content: '!!!' }] }) }, 400],
      ['/api/v1/send', { method: 'POST', ...json({ From: { Email: 'a@b.test' }, To: [{ Email: 'c@d.test' }], Headers: { From: 'spoof@x.test' } }) }, 400],
      ['/api/v1/send', { method: 'POST', ...json({ To: [{ Email: 'c@d.test' }] }) }, 400],
      ['/api/v1/messages', { method: 'PUT', ...json({ Read: true }), headers: { 'content-type': 'application/json', origin: 'https://evil.example' } }, 403],
    ];
    for (const [path, init, status] of refused) {
      const response = await call(path, auth, init);
      const body = await response.text();
      assert.ok([status].flat().includes(response.status), `${init.method ?? 'GET'} ${path.slice(0, 80)}: ${response.status} ${body.slice(0, 200)}`);
      assert.ok(body.trim().length > 0, `${path.slice(0, 80)}: a message says what was wrong`);
    }
    const messages = expectOk<MessageSummaryJson[]>(await new ApiClient(server.httpUrl, keyA).get(`/v1/inboxes/${sharedA.id}/messages`));
    assert.deepEqual(messages.map((m) => m.id), [idA], 'none of it changed the inbox');
  });

  it('keeps /v1 and the dashboard\'s API to their own credentials: Basic for an inbox is not a /v1 key', async () => {
    const response = await call('/v1/workspace', basic(sharedA.id, keyA));
    assert.equal(response.status, 401);
  });
});

describe(`Mailpit API: the workspace's rate limit (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const plans = JSON.stringify({ slow: { requests_per_second: 2 } });
  let server: StartedServer;

  before(async () => {
    server = await startServer({ env: { SANDBOX_PLANS: plans } });
  });

  after(async () => {
    await server?.stop();
  });

  it('holds Mailpit requests to the workspace\'s requests_per_second: past it, 429 in plain text with Retry-After; another workspace is unaffected', async () => {
    const slow = createWorkspace(server.dataDir, uniqueName('slow-a'), 'slow', { SANDBOX_PLANS: plans }).key.key;
    const other = createWorkspace(server.dataDir, uniqueName('slow-b'), 'slow', { SANDBOX_PLANS: plans }).key.key;
    const [inbox, otherInbox] = [await createInbox(new ApiClient(server.httpUrl, slow)), await createInbox(new ApiClient(server.httpUrl, other))];
    const watch = watchMailpitAnswers(server.httpUrl);
    try {
      const burst = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.httpUrl}/api/v1/messages`, { headers: { authorization: basic(inbox.id, slow) } })));
      const limited = burst.filter((response) => response.status === 429);
      assert.ok(limited.length >= 1, `no 429 among ${burst.map((response) => response.status).join(',')}`);
      assert.ok(burst.every((response) => response.status === 200 || response.status === 429));
      for (const response of limited) {
        assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
        assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
        assert.match(await response.text(), /requests per second/);
      }
      assert.equal((await fetch(`${server.httpUrl}/api/v1/messages`, { headers: { authorization: basic(otherInbox.id, other) } })).status, 200);
      assert.deepEqual(watch.failures, []);
    } finally {
      watch.stop();
    }
  });
});

describe(`Mailpit API: the open inbox (${testProfile()} profile)`, function () {
  this.timeout(120_000);

  it('is off by default: a request without credentials is refused', async () => {
    const server = await startServer();
    try {
      const response = await fetch(`${server.httpUrl}/api/v1/messages`);
      assert.equal(response.status, 401);
    } finally {
      await server.stop();
    }
  });

  it('answers requests without credentials for the named inbox only, and never reaches /v1 or another inbox', async () => {
    const [openWorkspace, openName] = [uniqueName('later'), uniqueName('open')];
    const server = await startServer({ env: { SANDBOX_OPEN_INBOX: `${openWorkspace}/${openName}`, SANDBOX_OPEN_INBOX_SMTP_PORT: '0' } });
    const watch = watchMailpitAnswers(server.httpUrl);
    try {
      // The workspace is made after the start, so the server could not make the open inbox then.
      const later = createWorkspace(server.dataDir, openWorkspace);
      const api = new ApiClient(server.httpUrl, later.key.key);
      assert.equal((await fetch(`${server.httpUrl}/api/v1/messages`)).status, 401, 'until the inbox exists, nothing is open');
      const [open, closed] = [await createInbox(api, openName), await createInbox(api)];
      const [openId] = await sendMails(credentialsOf(open), [{ from: 'a@open.test', to: 'b@open.test', subject: 'For the open inbox', text: 'x' }]) as [string];
      const [closedId] = await sendMails(credentialsOf(closed), [{ from: 'a@open.test', to: 'b@open.test', subject: 'Closed', text: 'x' }]) as [string];
      const anonymous = new MailpitClient(server.httpUrl);
      // The server remembers for a moment that the open inbox did not exist; it opens once it is looked up again.
      await pollUntil(async () => (await fetch(`${server.httpUrl}/api/v1/messages`)).status === 200, 10_000, 'the open inbox to answer');
      assert.deepEqual((await anonymous.listMessages()).messages.map((m) => m.ID), [openId]);
      assert.equal((await anonymous.getMessageSummary(openId)).Subject, 'For the open inbox');
      assert.equal(await anonymous.setReadStatus({ Read: true }), 'ok', 'read_write, within the open inbox');
      assert.equal((await fetch(`${server.httpUrl}/api/v1/message/${closedId}`)).status, 404, 'another inbox\'s message is unknown');
      const naming = await fetch(`${server.httpUrl}/api/v1/messages`, { headers: { 'x-sandbox-inbox': closed.id } });
      assert.equal(naming.status, 401, 'naming another inbox without credentials');
      expectError(await api.withKey(null).get('/v1/inboxes'), 401, 'unauthorized');
      expectError(await api.withKey(null).get(`/v1/inboxes/${open.id}/messages`), 401, 'unauthorized');
      const withKey = new MailpitClient(server.httpUrl, { auth: { username: closed.name, password: later.key.key } });
      assert.deepEqual((await withKey.listMessages()).messages.map((m) => m.ID), [closedId], 'credentials still reach their own inbox');
      const closedMessages = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${closed.id}/messages`));
      assert.equal(closedMessages[0]!.read, false, 'the open inbox\'s bulk read did not reach it');
      assert.deepEqual(watch.failures, []);
    } finally {
      watch.stop();
      await server.stop();
    }
  });
});
