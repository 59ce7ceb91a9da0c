// End to end, both profiles: SANDBOX_BASE_PATH moves the whole HTTP surface under a path, as behind a reverse proxy
// that forwards /mail/... unchanged: nothing answers outside it, the session cookie is scoped to it, and every
// absolute link the server hands out (set-password, invitations, signed files) carries it, and the MCP server's tools call
// the API back under it.
import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, InvitationWithLinkJson, MessageDetailJson } from '../support/api-json.js';
import { firstRunLink, linkToken, OWNER_EMAIL, OWNER_PASSWORD, SessionClient } from '../support/dashboard.js';
import { expectOk } from '../support/envelope.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

describe(`SANDBOX_BASE_PATH (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let base: string;

  before(async () => {
    server = await startServer({ env: { SANDBOX_BASE_PATH: 'mail/' } });
    base = `${server.httpUrl}/mail`;
  });

  after(async () => {
    await server?.stop();
  });

  it('answers 404 outside the base path and serves everything under it', async () => {
    // Outside the base path is no operation of the contract: only the error envelope is checked.
    for (const path of ['/v1/workspace', '/livez', '/mailbox/v1/workspace', '/']) {
      const response = await fetch(`${server.httpUrl}${path}`, { headers: { authorization: `Bearer ${server.defaultKey}` } });
      assert.equal(response.status, 404, path);
      assert.deepEqual(Object.keys(await response.json() as object), ['success', 'error']);
    }
    const inside = new ApiClient(base, server.defaultKey);
    expectOk(await inside.get('/v1/workspace'));
    assert.equal((await inside.get('/livez')).status, 200);
  });

  it('puts the base path in links and in the cookie\'s Path', async () => {
    const link = firstRunLink(server);
    assert.ok(link.startsWith(`${base}/set-password#token=`), link);
    const owner = new SessionClient(base);
    expectOk(await owner.request('POST', '/v1/password-links/accept', { body: { token: linkToken(link), password: OWNER_PASSWORD } }));
    const signedIn = await owner.signIn(OWNER_EMAIL, OWNER_PASSWORD);
    expectOk(signedIn, 201);
    assert.match(signedIn.headers.getSetCookie().join('\n'), /sbx_session=[^;]+;.*path=\/mail;/i);
    assert.match(signedIn.headers.getSetCookie().join('\n'), /sbx_device=[^;]+;.*path=\/mail\/v1\/session;/i, 'the device cookie goes with sign-ins alone');

    const invitation = expectOk<InvitationWithLinkJson>(await owner.request('POST', '/v1/invitations', { body: { email: 'qa@example.com', role: 'member' } }), 201);
    assert.ok(invitation.url.startsWith(`${base}/accept-invitation#token=`), invitation.url);

    const inbox = expectOk<InboxWithCredentialsJson>(await owner.request('POST', '/v1/inboxes', { body: { name: 'under a base path' } }), 201);
    const sent = expectOk<{ id: string }>(await owner.request('POST', `/v1/inboxes/${inbox.id}/send`, {
      body: { from: { email: 'app@example.com' }, to: [{ email: 'user@example.com' }], subject: 'base path', text: 'hello' },
    }), 201);
    const { files } = expectOk<MessageDetailJson>(await owner.get(`/v1/messages/${sent.id}`));
    assert.ok(files.raw.startsWith(`${base}/v1/files/`), files.raw);
    const raw = await new ApiClient(base, null).get(files.raw);
    assert.equal(raw.status, 200);
    assert.match(raw.bytes.toString(), /Subject: base path/);
  });

  it('serves the MCP server at /mail/mcp, whose tools call the API back under the base path', async () => {
    const api = new ApiClient(base, server.defaultKey);
    const inbox = expectOk<InboxWithCredentialsJson>(await api.post('/v1/inboxes', { name: 'mcp under a base path' }), 201);
    const client = new Client({ name: 'base-path-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${server.defaultKey}` } },
    }));
    try {
      const { content, isError } = await client.callTool({ name: 'list_inboxes', arguments: {} }) as CallToolResult;
      const text = content[0]?.type === 'text' ? content[0].text : '';
      assert.ok(!isError, text);
      assert.ok(text.includes(inbox.id), text);
    } finally {
      await client.close();
    }
    assert.equal((await fetch(`${server.httpUrl}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${server.defaultKey}` } })).status, 404);
  });
});
