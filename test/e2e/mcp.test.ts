// End to end, both profiles: the MCP server, driven by the MCP SDK's own client over stdio (`node dist/src/mcp/stdio.js`
// with MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY) and over streamable HTTP at /mcp, against a real server with mail sent
// over real SMTP. Every HTTP answer of /mcp is checked against openapi.yaml on the way in.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { admin } from '../support/admin.js';
import { assertMatchesContract, ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { testProfile } from '../support/profile.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

const STDIO_ENTRY = path.join(PROJECT_ROOT, 'dist', 'src', 'mcp', 'stdio.js');
const READ_TOOLS = ['get_message', 'list_inboxes', 'search_messages', 'wait_for_code', 'wait_for_message'];
const ALL_TOOLS = [...READ_TOOLS, 'create_inbox', 'delete_messages'].sort();

/** Checks each answer of /mcp against the contract, then hands it on unchanged. */
const contractChecked: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const request = new Request(input, init);
  const body = Buffer.from(await response.clone().arrayBuffer());
  assertMatchesContract(request.method, new URL(request.url).pathname, response.status, response.headers.get('Content-Type') ?? '', body, response.headers);
  return response;
};

interface Transport {
  name: string;
  connect(key: string): Promise<Client>;
}

/** The tool's JSON answer; fails when the call was a tool error. */
function resultOf<T>(result: unknown): T {
  const { content, isError } = result as CallToolResult;
  const text = content[0]?.type === 'text' ? content[0].text : '';
  assert.ok(!isError, `the tool failed: ${text}`);
  return JSON.parse(text) as T;
}

/** The tool error's text, parsed when it is the API's error, as is; fails when the call succeeded. */
function toolErrorOf(result: unknown): string {
  const { content, isError } = result as CallToolResult;
  assert.equal(isError, true, `expected a tool error, got ${JSON.stringify(content)}`);
  return content[0]?.type === 'text' ? content[0].text : '';
}

interface MessageAnswer {
  id: string;
  subject: string;
  text: string | null;
  codes: { value: string; source: string }[];
  link_details: { url: string; text: string; source: string }[];
  html?: { untrusted: boolean; note: string; content: string } | null;
}

describe(`the MCP server (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let writeKey: string;
  let readKey: string;
  const clients: Client[] = [];

  before(async function () {
    server = await startServer();
    writeKey = server.defaultKey!;
    api = new ApiClient(server.httpUrl, writeKey);
    const workspaceId = expectOk<{ id: string }>(await api.get('/v1/workspace')).id;
    readKey = admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceId, '--access', 'read']).key;
  });

  after(async function () {
    await Promise.all(clients.map((client) => client.close()));
    await server?.stop();
  });

  const waitsOpen = async () => sampleValue(parseExposition((await api.withKey(null).get('/metrics')).bytes.toString()), 'mail_sandbox_message_waits_open');

  const transports: Transport[] = [
    {
      name: 'stdio',
      async connect(key) {
        const client = new Client({ name: 'mcp-test', version: '1.0.0' });
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [STDIO_ENTRY],
          env: { MAIL_SANDBOX_URL: server.httpUrl, MAIL_SANDBOX_KEY: key, PATH: process.env.PATH ?? '' },
          stderr: 'pipe',
        });
        await client.connect(transport);
        clients.push(client);
        return client;
      },
    },
    {
      name: 'streamable HTTP at /mcp',
      async connect(key) {
        const client = new Client({ name: 'mcp-test', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(`${server.httpUrl}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
          fetch: contractChecked,
        });
        await client.connect(transport);
        clients.push(client);
        return client;
      },
    },
  ];

  for (const transport of transports) {
    describe(`over ${transport.name}`, function () {
      let writer: Client;
      let reader: Client;
      let inbox: InboxWithCredentialsJson;

      before(async function () {
        [writer, reader] = await Promise.all([transport.connect(writeKey), transport.connect(readKey)]);
        inbox = await createInbox(api, uniqueName('mcp'));
      });

      it('offers a read key the read tools only, and a read_write key the write tools too', async () => {
        assert.deepEqual((await reader.listTools()).tools.map((tool) => tool.name).sort(), READ_TOOLS);
        assert.deepEqual((await writer.listTools()).tools.map((tool) => tool.name).sort(), ALL_TOOLS);
      });

      it('list_inboxes, search_messages and get_message read real mail: codes and links, HTML only on request and marked untrusted', async () => {
        assert.ok(resultOf<{ id: string }[]>(await reader.callTool({ name: 'list_inboxes', arguments: {} })).some((listed) => listed.id === inbox.id));
        const subject = uniqueName('Your sign-in code');
        const [id] = await sendMails(credentialsOf(inbox), [{
          from: 'login@acme.test', to: 'alice@customer.test', subject,
          text: 'Your verification code is 482913. It expires in 10 minutes.',
          html: '<p>Your verification code is <b>482913</b>.</p><p><a href="https://acme.test/verify?t=abc">Verify your email</a></p>',
        }]);

        const found = resultOf<{ messages: { id: string; subject: string }[]; more: boolean }>(
          await reader.callTool({ name: 'search_messages', arguments: { inbox: inbox.id, q: `subject:"${subject}"`, limit: 5 } }),
        );
        assert.deepEqual(found, { messages: [found.messages[0]], more: false });
        assert.equal(found.messages[0]!.id, id);

        const message = resultOf<MessageAnswer>(await reader.callTool({ name: 'get_message', arguments: { message: id } }));
        assert.equal(message.subject, subject);
        assert.equal(message.codes[0]?.value, '482913');
        assert.deepEqual(message.link_details.map((link) => [link.url, link.text]), [['https://acme.test/verify?t=abc', 'Verify your email']]);
        assert.match(message.text ?? '', /482913/);
        assert.ok(!('html' in message), 'no HTML unless asked for');

        const withHtml = resultOf<MessageAnswer>(await reader.callTool({ name: 'get_message', arguments: { message: id, include_html: true } }));
        assert.equal(withHtml.html?.untrusted, true);
        assert.match(withHtml.html!.note, /untrusted/i);
        assert.match(withHtml.html!.content, /<b>482913<\/b>/);
      });

      it('wait_for_message answers with a mail that arrives during the wait', async () => {
        const subject = uniqueName('Welcome aboard');
        const waiting = reader.callTool({ name: 'wait_for_message', arguments: { inbox: inbox.id, q: `subject:"${subject}"`, timeout_seconds: 60, lookback_seconds: 0 } });
        await pollUntil(async () => (await waitsOpen()) === 1, 15_000, 'the server to hold the wait');
        const [id] = await sendMails(credentialsOf(inbox), [{ from: 'app@acme.test', to: 'bob@customer.test', subject, text: 'Glad to have you.' }]);
        const message = resultOf<MessageAnswer>(await waiting);
        assert.equal(message.id, id);
        assert.equal(message.text?.trim(), 'Glad to have you.');
      });

      it('wait_for_code answers with the code of a mail sent after the wait started, passing over mail without one', async () => {
        const to = `${uniqueName('carol')}@customer.test`;
        const waiting = reader.callTool({ name: 'wait_for_code', arguments: { inbox: inbox.id, q: `to:${to}`, timeout_seconds: 60, lookback_seconds: 0 } });
        await pollUntil(async () => (await waitsOpen()) === 1, 15_000, 'the server to hold the wait');
        const [, id] = await sendMails(credentialsOf(inbox), [
          { from: 'news@acme.test', to, subject: 'Our spring newsletter', text: 'Nothing to verify here.' },
          { from: 'login@acme.test', to, subject: 'Sign in to Acme', text: 'Your one-time code: 731 904' },
        ]);
        const answer = resultOf<{ code: string; message: { id: string } }>(await waiting);
        assert.equal(answer.code, '731904');
        assert.equal(answer.message.id, id);
      });

      it('a wait that sees no match ends with a tool error carrying wait_timeout', async () => {
        const text = toolErrorOf(await reader.callTool({ name: 'wait_for_message', arguments: { inbox: inbox.id, q: 'subject:never-sent', timeout_seconds: 1, lookback_seconds: 0 } }));
        assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'wait_timeout');
      });

      it('an unknown inbox is a tool error carrying the API\'s not_found', async () => {
        const text = toolErrorOf(await reader.callTool({ name: 'search_messages', arguments: { inbox: 'inb_nonexistent' } }));
        assert.deepEqual((JSON.parse(text) as { error: { code: string; status: number } }).error.code, 'not_found');
      });

      it('create_inbox and delete_messages work with a read_write key; a read key calling delete_messages is refused', async () => {
        const created = resultOf<InboxWithCredentialsJson>(await writer.callTool({ name: 'create_inbox', arguments: { name: uniqueName('agent inbox') } }));
        assert.ok(created.smtp.password.length > 0);
        const [keep, drop] = await sendMails(credentialsOf(created), [
          { from: 'app@acme.test', to: 'dave@customer.test', subject: 'Keep me', text: 'a' },
          { from: 'app@acme.test', to: 'dave@customer.test', subject: 'Drop me', text: 'b' },
        ]);

        const refused = toolErrorOf(await reader.callTool({ name: 'delete_messages', arguments: { inbox: created.id, ids: [drop] } }));
        assert.match(refused, /delete_messages/);
        expectOk(await api.get(`/v1/messages/${drop}`));

        assert.deepEqual(resultOf(await writer.callTool({ name: 'delete_messages', arguments: { inbox: created.id, q: 'subject:drop' } })), { deleted: 1 });
        expectError(await api.get(`/v1/messages/${drop}`), 404, 'not_found');
        expectOk(await api.get(`/v1/messages/${keep}`));
      });
    });
  }

  describe('the /mcp endpoint', () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    const headers = { accept: 'application/json, text/event-stream' };

    it('answers a missing, malformed or unknown bearer with 401 unauthorized, and a session cookie opens nothing', async () => {
      for (const key of [null, 'not-a-key', `sbx_api_${'A'.repeat(43)}`]) {
        expectError(await api.withKey(key).request('POST', '/mcp', { body: initialize, headers }), 401, 'unauthorized', String(key));
      }
      expectError(await api.withKey(null).request('POST', '/mcp', { body: initialize, headers: { ...headers, cookie: 'sbx_session=whatever' } }), 401, 'unauthorized');
      expectError(await api.withKey(null).request('GET', '/mcp', { headers }), 401, 'unauthorized');
    });

    it('answers the handshake as JSON, GET and DELETE with 405 and Allow: POST, and bodies that are not JSON-RPC with 400', async () => {
      const answer = await api.request<{ result: { serverInfo: { name: string } } }>('POST', '/mcp', { body: initialize, headers });
      assert.equal(answer.status, 200);
      assert.equal(answer.json.result.serverInfo.name, 'mail-sandbox');
      for (const method of ['GET', 'DELETE']) {
        const refused = await api.request(method, '/mcp', { headers });
        expectError(refused, 405, 'method_not_allowed', method);
        assert.equal(refused.headers.get('allow'), 'POST');
      }
      expectError(await api.request('POST', '/mcp', { body: { hello: 'world' }, headers }), 400, 'invalid_request');
      expectError(await api.request('POST', '/mcp', { rawBody: 'x'.repeat(1024 * 1024 + 1), headers: { ...headers, 'content-type': 'application/json' } }), 413, 'payload_too_large');
    });
  });

  describe('npm run --silent mcp', () => {
    it('exits 2 with a clear message on stderr, and nothing on stdout, when the environment lacks the URL or the key', () => {
      const run = spawnSync(process.execPath, [STDIO_ENTRY], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /MAIL_SANDBOX_URL .* and MAIL_SANDBOX_KEY/);
    });

    it('exits 1 naming the API\'s code when the service refuses the key', () => {
      const run = spawnSync(process.execPath, [STDIO_ENTRY], { env: { PATH: process.env.PATH ?? '', MAIL_SANDBOX_URL: server.httpUrl, MAIL_SANDBOX_KEY: 'sbx_api_wrong' }, encoding: 'utf8' });
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /unauthorized/);
    });
  });
});
