// End-to-end tests of the HTTP API against the real built server (child process, real SMTP, real HTTP).
// Every request goes through ApiClient, which checks each response against openapi.yaml, so a status or
// body the contract does not declare fails the test even where the test itself only looks at the code.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { loadOpenApi, type HttpMethod, type OperationSpec } from '../../src/http/openapi.js';
import { ApiClient, assertMatchesContract, type ApiResponse } from '../support/api-client.js';
import { admin, createWorkspace } from '../support/admin.js';
import type { InboxJson, InboxWithCredentialsJson, MessageDetailJson, MessageSummaryJson, TagJson, TagRuleJson, UsageJson, WorkspaceJson } from '../support/api-json.js';
import { expectError, expectOk, type Envelope, type ErrorBody } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, smtpTransport, type SmtpCredentials } from '../support/smtp.js';

// ---------------------------------------------------------------------------------------------------------
// Small helpers.

const OPENAPI = loadOpenApi();
const ALL_METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A 1x1 PNG: small, and decodable, so the thumbnail endpoints answer 200. */
const PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const FIXTURE_TAG = 'fixture-tag';
/** A valid tag name that no workspace has, as the "never existed" counterpart of FIXTURE_TAG. */
const MISSING_TAG = 'missing-tag';
const FIXTURE_SUBJECT = 'isolation fixture subject';

/**
 * Sends `count` messages one after another over one pooled SMTP connection and returns the stored ids in
 * send order (read from the 250 reply), so tests know exactly which messages exist.
 */
function sendMessages(credentials: SmtpCredentials, count: number, subjectPrefix = 'msg'): Promise<string[]> {
  return sendMails(credentials, Array.from({ length: count }, (_, i) => ({ from: 'app@example.com', to: 'user@example.com', subject: `${subjectPrefix} ${i}`, text: `body ${i}` })));
}

/** Whether the SMTP server accepts these credentials; only an authentication refusal counts as false. */
async function smtpLoginWorks(credentials: SmtpCredentials): Promise<boolean> {
  const transport = smtpTransport(credentials);
  try {
    await transport.verify();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EAUTH') return false;
    throw error;
  } finally {
    transport.close();
  }
}

async function listInboxes(api: ApiClient): Promise<InboxJson[]> {
  return expectOk<InboxJson[]>(await api.get('/v1/inboxes'));
}

/** Runs bad requests and proves they left the stored inboxes exactly as they were. */
async function assertNothingChanges(api: ApiClient, action: () => Promise<void>): Promise<void> {
  const before = await listInboxes(api);
  await action();
  assert.deepEqual(await listInboxes(api), before, 'a refused request changed the stored inboxes');
}

interface Page {
  items: MessageSummaryJson[];
  nextCursor: string | undefined;
}

async function fetchPage(api: ApiClient, inboxId: string, limit: number, cursor?: string): Promise<Page> {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  const response = await api.get<Envelope<MessageSummaryJson[]>>(`/v1/inboxes/${inboxId}/messages?${query}`);
  const items = expectOk<MessageSummaryJson[]>(response);
  return { items, nextCursor: response.json.next_cursor };
}

/** Walks every page; `between` runs after each page that has a successor, before that successor is fetched. */
async function walkPages(api: ApiClient, inboxId: string, limit: number, between?: () => Promise<void>): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(api, inboxId, limit, cursor);
    pages.push(page);
    assert.ok(pages.length <= 100, 'paging does not end');
    cursor = page.nextCursor;
    if (cursor && between) await between();
  } while (cursor);
  return pages;
}

/** Newest first: received_at descending, ties broken by id descending. */
function assertNewestFirst(items: MessageSummaryJson[]): void {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const ordered = a.received_at > b.received_at || (a.received_at === b.received_at && a.id > b.id);
    assert.ok(ordered, `not newest first at ${i}: ${a.id}@${a.received_at} before ${b.id}@${b.received_at}`);
  }
}

/**
 * Ids a path template needs; `strict` refuses to guess an id for a resource the tests have no fixture for.
 * `tag` is a tag the fixture message carries, `rule` a tag rule of the fixture's workspace.
 */
interface FixtureIds {
  workspace: string;
  inbox: string;
  message: string;
  tag: string;
  rule: string;
  webhook: string;
  delivery: string;
}

function fillPath(operationPath: string, ids: FixtureIds, strict: boolean): string {
  return operationPath.replace(/\{(\w+)\}/g, (_whole, name: string, offset: number) => {
    const resource = name === 'id' ? operationPath.slice(0, offset).split('/').filter(Boolean).at(-1) : name;
    if (resource === 'workspace_id') return encodeURIComponent(ids.workspace);
    if (resource === 'inboxes' || resource === 'inbox_id') return encodeURIComponent(ids.inbox);
    if (resource === 'messages' || resource === 'message_id') return encodeURIComponent(ids.message);
    if (resource === 'tag-rules') return encodeURIComponent(ids.rule);
    if (resource === 'webhooks') return encodeURIComponent(ids.webhook);
    if (resource === 'webhook-deliveries') return encodeURIComponent(ids.delivery);
    if (resource === 'name') return encodeURIComponent(ids.tag);
    // The fixture message has exactly one attachment, an image, so index 0 exists and has a thumbnail.
    if (resource === 'index') return '0';
    // Auth is checked before routing parameters, so any placeholder proves the 401/403 cases.
    if (!strict) return 'placeholder';
    throw new Error(`no fixture id for {${name}} in ${operationPath}: add one to fillPath in test/e2e/http-api.test.ts`);
  });
}

const hasPathParameters = (operation: OperationSpec) => /\{\w+\}/.test(operation.path);

/**
 * Operations that take the API key. `security: []` operations (signed file links, sign-in, one-time links) are tested
 * on their own, and the dashboard-only ones, which answer a key 403 session_required, in access-matrix.test.ts.
 */
const keyedOperations = () => OPENAPI.operations.filter((operation) => !operation.public && !operation.sessionOnly);

/**
 * A VALID body per operation, so a 403 (read key) or 404 (foreign id) cannot be blamed on body validation.
 * Where an accidental success would change the fixture (a bug letting the request through), the body aims at
 * the fixture so the "changes nothing" checks notice it.
 */
const SAMPLE_BODIES: Record<string, (ids: FixtureIds) => unknown> = {
  createInbox: () => ({ name: uniqueName('sample') }),
  sendMessage: () => ({ from: { email: 'sample@example.com' }, to: [{ email: 'to@example.com' }], subject: 'sample body', text: 'sample' }),
  batchMessages: (ids) => ({ action: 'tag', ids: [ids.message], tags: ['sample-batch'] }),
  addMessageTag: () => ({ tag: 'sample-added' }),
  setMessageTags: () => ({ tags: ['sample-set'] }),
  updateTag: () => ({ color: '#123456' }),
  createTagRule: () => ({ query: 'subject:sample', tags: ['sample-rule'] }),
  replaceTagRule: () => ({ query: 'subject:replaced', tags: ['sample-replaced'] }),
  createWebhook: (ids) => ({ url: 'https://93.184.216.34/sample-hook', inbox_id: ids.inbox }),
  replaceInboxChaos: () => ({ enabled: true, sender: { probability: 100, code: 550 } }),
  mcpRequest: () => ({ jsonrpc: '2.0', id: 1, method: 'ping' }),
};

function sampleBody(operation: OperationSpec, ids: FixtureIds): unknown {
  if (!operation.requestBodySchema) return undefined;
  const make = SAMPLE_BODIES[operation.operationId];
  if (!make) throw new Error(`no sample body for ${operation.operationId}: add one to SAMPLE_BODIES in test/e2e/http-api.test.ts`);
  return make(ids);
}

function callOperation(api: ApiClient, operation: OperationSpec, path: string, options: { headers?: Record<string, string>; withBody?: boolean; ids?: FixtureIds } = {}) {
  if (options.withBody && !options.ids) throw new Error('callOperation: withBody needs the fixture ids the sample body may point at');
  const body = options.withBody ? sampleBody(operation, options.ids!) : undefined;
  return api.request(operation.method.toUpperCase(), path, { headers: options.headers, ...(body === undefined ? {} : { body }) });
}

/** A syntactically plausible id that certainly does not exist: the same prefix, all zeros. */
const missingIdLike = (id: string) => id.replace(/[^_]+$/, (tail) => '0'.repeat(tail.length));

/** The error message with the given ids masked, to compare "exists elsewhere" with "does not exist". */
function maskIds(message: string, ids: string[]): string {
  return ids.reduce((text, id) => text.split(id).join('<id>'), message);
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over node:http with a given agent, so a test controls connection reuse (fetch cannot). */
function rawRequest(baseUrl: string, agent: http.Agent, method: string, path: string, headers: Record<string, string>, chunks: Buffer[] = []): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, agent, headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => parts.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

function currentPeriodStart(at: Date): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
}

// ---------------------------------------------------------------------------------------------------------

describe('HTTP API (e2e, shared server)', () => {
  let server: StartedServer;
  /** Workspace A ("default"), read_write. */
  let api: ApiClient;
  let workspaceA: WorkspaceJson;
  let inboxA: InboxWithCredentialsJson;
  /** A's fixture message: text, HTML, one PNG attachment (index 0), tagged FIXTURE_TAG. */
  let messageA: string;
  /** A tag rule of workspace A, scoped to inboxA, created after messageA (so it never tags it). */
  let ruleA: TagRuleJson;
  /** A webhook of workspace A, and the delivery its test queued. */
  let webhookA: string;
  let deliveryA: string;
  /** Workspace B, read_write; owns nothing of A's. */
  let apiB: ApiClient;
  let workspaceB: { id: string; name: string };
  let inboxB: InboxWithCredentialsJson;
  /** A read-only key of workspace A. */
  let readKey: string;
  /** A read_write key of workspace A that worked and was then revoked. */
  let revokedKey: string;

  before(async () => {
    // The matrix below reads every GET operation to its end, the inbox event stream included: streams here end
    // after a second (with their ready event read) instead of half an hour.
    server = await startServer({ env: { SANDBOX_STREAM_MAX_SECONDS: '1' } });
    assert.ok(server.defaultKey, 'the first start prints the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    workspaceA = expectOk<WorkspaceJson>(await api.get('/v1/workspace'));

    inboxA = await createInbox(api, 'isolation A');
    // Through the send endpoint so the fixture has everything a path can point at: an HTML part (html
    // endpoints), an image attachment at index 0 (attachment and thumbnail endpoints) and a tag ({name}).
    messageA = expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inboxA.id}/send`, {
      from: { email: 'app@example.com' },
      to: [{ email: 'user@example.com' }],
      subject: FIXTURE_SUBJECT,
      text: 'isolation fixture',
      html: '<p>isolation fixture</p>',
      tags: [FIXTURE_TAG],
      attachments: [{ filename: 'pixel.png', content_type: 'image/png', content: PIXEL_PNG_BASE64 }],
    }), 201, 'send the fixture message').id;
    ruleA = expectOk<TagRuleJson>(await api.post('/v1/tag-rules', { inbox_id: inboxA.id, query: 'subject:never-sent-fixture', tags: ['fixture-rule'] }), 201, 'create the fixture rule');
    // A public address literal: allowed without a name lookup; its attempts simply fail in a sandbox without internet.
    webhookA = expectOk<{ id: string }>(await api.post('/v1/webhooks', { url: 'https://93.184.216.34/fixture-hook' }), 201, 'create the fixture webhook').id;
    deliveryA = String(expectOk<{ delivery_id: number }>(await api.post(`/v1/webhooks/${webhookA}/test`), 202, 'queue the fixture delivery').delivery_id);

    const created = createWorkspace(server.dataDir, 'other');
    workspaceB = created.workspace;
    apiB = api.withKey(created.key.key);
    inboxB = await createInbox(apiB, 'isolation B');

    readKey = admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceA.id, '--access', 'read']).key;

    const doomed = admin<{ id: string; key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceA.id, '--access', 'read_write']);
    // Proves the key was good before revocation, so the 401 below is caused by the revocation.
    expectOk(await api.withKey(doomed.key).get('/v1/workspace'));
    admin(server.dataDir, ['key', 'revoke', '--id', doomed.id]);
    revokedKey = doomed.key;
  });

  after(async () => {
    await server?.stop();
  });

  const fixtureIds = (): FixtureIds => ({ workspace: workspaceA.id, inbox: inboxA.id, message: messageA, tag: FIXTURE_TAG, rule: ruleA.id, webhook: webhookA, delivery: deliveryA });

  /** Refused requests (read key, foreign key) must leave every fixture object of A exactly as it was. */
  async function assertFixtureUntouched(who: string): Promise<void> {
    const inbox = expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxA.id}`));
    assert.equal(inbox.message_count, 1, `${who} changed A's message count`);
    const detail = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${messageA}`));
    assert.equal(detail.read, false, `${who} marked A's message read`);
    assert.deepEqual(detail.tags, [FIXTURE_TAG], `${who} changed A's message tags`);
    const tag = expectOk<TagJson[]>(await api.get('/v1/tags')).find((candidate) => candidate.name === FIXTURE_TAG);
    assert.deepEqual(tag && { custom_color: tag.custom_color, message_count: tag.message_count }, { custom_color: false, message_count: 1 }, `${who} changed A's tag`);
    assert.deepEqual(expectOk<TagRuleJson[]>(await api.get('/v1/tag-rules')), [ruleA], `${who} changed A's tag rules`);
    assert.deepEqual(expectOk<{ id: string }[]>(await api.get('/v1/webhooks')).map((webhook) => webhook.id), [webhookA], `${who} changed A's webhooks`);
    assert.equal(await smtpLoginWorks(credentialsOf(inboxA)), true, `${who} rotated A's SMTP password`);
  }

  /** The signed link of a public (security: []) operation, taken from a fresh detail of the fixture message. */
  async function signedLinkFor(operation: OperationSpec): Promise<string> {
    const { files } = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${messageA}`));
    const links: Record<string, string | undefined> = {
      getSignedRaw: files.raw,
      getSignedHtml: files.html,
      getSignedAttachment: files.attachments[0],
      getSignedThumbnail: files.thumbnails[0],
    };
    const link = links[operation.operationId];
    if (!link) throw new Error(`no signed link for ${operation.operationId}: add it to signedLinkFor in test/e2e/http-api.test.ts`);
    return link;
  }

  // -------------------------------------------------------------------------------------------------------
  describe('authentication and isolation over every operation in openapi.yaml', () => {
    it('lists the operations the matrix iterates (guards against an empty or unparsed contract)', () => {
      const ids = OPENAPI.operations.map((operation) => operation.operationId);
      for (const known of ['getWorkspace', 'getUsage', 'listInboxes', 'createInbox', 'getInbox', 'deleteInbox', 'listMessages', 'getMessage',
        'sendMessage', 'batchMessages', 'addMessageTag', 'listTags', 'updateTag', 'createTagRule', 'replaceTagRule', 'getSignedRaw']) {
        assert.ok(ids.includes(known), `openapi.yaml lost ${known}`);
      }
      assert.equal(new Set(ids).size, ids.length, 'duplicate operationId');
    });

    it('answers 401 unauthorized on every operation when the Authorization header is missing', async () => {
      const anonymous = api.withKey(null);
      for (const operation of keyedOperations()) {
        const response = await callOperation(anonymous, operation, fillPath(operation.path, fixtureIds(), false), { withBody: true, ids: fixtureIds() });
        expectError(response, 401, 'unauthorized', `${operation.operationId} without Authorization`);
      }
    });

    it('answers 401 unauthorized on every operation for malformed Authorization headers', async () => {
      const validKey = server.defaultKey!;
      const malformed = [
        'Basic x',
        'Bearer',
        `Basic ${Buffer.from(`user:${validKey}`).toString('base64')}`,
        `Token ${validKey}`,
        `Bearer ${validKey} trailing`,
        `Bearer ${validKey.slice('sbx_api_'.length)}`, // the real secret without its prefix
        validKey, // no scheme at all
      ];
      const anonymous = api.withKey(null);
      for (const operation of keyedOperations()) {
        for (const authorization of malformed) {
          const response = await callOperation(anonymous, operation, fillPath(operation.path, fixtureIds(), false), { headers: { authorization }, withBody: true, ids: fixtureIds() });
          expectError(response, 401, 'unauthorized', `${operation.operationId} with Authorization '${authorization.slice(0, 20)}...'`);
        }
      }
    });

    it('answers 401 unauthorized on every operation for an unknown key and a revoked key, with the same message', async () => {
      const unknownKey = `sbx_api_${randomBytes(32).toString('base64url')}`;
      for (const operation of keyedOperations()) {
        const path = fillPath(operation.path, fixtureIds(), false);
        const unknown = expectError(await callOperation(api.withKey(unknownKey), operation, path, { withBody: true, ids: fixtureIds() }), 401, 'unauthorized', `${operation.operationId} unknown key`);
        const revoked = expectError(await callOperation(api.withKey(revokedKey), operation, path, { withBody: true, ids: fixtureIds() }), 401, 'unauthorized', `${operation.operationId} revoked key`);
        // A revoked key must not be distinguishable from one that never existed.
        assert.equal(revoked, unknown, `${operation.operationId}: revoked and unknown keys answer differently`);
      }
    });

    it('lets a read key use every GET operation that has a success to give', async () => {
      const reader = api.withKey(readKey);
      // GET /mcp declares no 200: it always answers 405 (the MCP server keeps no sessions); the 405 has its own test.
      const gets = keyedOperations().filter((operation) => operation.method === 'get' && operation.responses['200'] !== undefined);
      assert.ok(gets.length > 0);
      // A wait for none succeeds only while nothing matches, and the fixture inbox has mail: it asks about a subject never sent.
      const successQuery: Record<string, string> = { waitForNoMessage: '?subject=never-sent&timeout=0.1' };
      for (const operation of gets) {
        const response = await reader.get(fillPath(operation.path, fixtureIds(), true) + (successQuery[operation.operationId] ?? ''));
        assert.equal(response.status, 200, `${operation.operationId} with a read key: ${response.bytes.toString().slice(0, 300)}`);
        if (response.json !== undefined) assert.equal((response.json as Envelope<unknown>).success, true, operation.operationId);
        else assert.ok(response.bytes.length > 0, `${operation.operationId}: empty non-JSON body`);
      }
    });

    it('lets a read key use the operations marked x-read-only, which change nothing whatever their method', async () => {
      const reader = api.withKey(readKey);
      // The MCP endpoint answers in JSON-RPC, not the envelope: test/e2e/mcp.test.ts drives it with a read key.
      const readOnly = keyedOperations().filter((operation) => operation.method !== 'get' && operation.readOnly && !operation.exchange);
      assert.ok(readOnly.length > 0);
      for (const operation of readOnly) {
        const response = await callOperation(reader, operation, fillPath(operation.path, fixtureIds(), true), { withBody: true, ids: fixtureIds() });
        expectOk(response, 200, `${operation.operationId} with a read key`);
      }
    });

    it('answers 403 read_only_key to a read key on every other non-GET operation and changes nothing', async () => {
      const reader = api.withKey(readKey);
      const writes = keyedOperations().filter((operation) => operation.method !== 'get' && !operation.readOnly);
      assert.ok(writes.length > 0);
      const inboxesBefore = await listInboxes(api);
      for (const operation of writes) {
        // Strict: real fixture ids and a valid body, so only the key's access level can cause a refusal.
        const response = await callOperation(reader, operation, fillPath(operation.path, fixtureIds(), true), { withBody: true, ids: fixtureIds() });
        expectError(response, 403, 'read_only_key', `${operation.operationId} with a read key`);
      }
      // Nothing was created, deleted, cleared, rotated, tagged, marked or recoloured.
      assert.deepEqual(await listInboxes(api), inboxesBefore);
      await assertFixtureUntouched('the read key');
    });

    it("answers another workspace's ids with 404 not_found, indistinguishable from ids that never existed, and changes nothing", async () => {
      const withIds = keyedOperations().filter(hasPathParameters);
      assert.ok(withIds.length > 0);
      const ids = fixtureIds();
      const missing: FixtureIds = {
        workspace: missingIdLike(ids.workspace),
        inbox: missingIdLike(ids.inbox),
        message: missingIdLike(ids.message),
        tag: MISSING_TAG,
        rule: missingIdLike(ids.rule),
        webhook: missingIdLike(ids.webhook),
        delivery: '999999999',
      };
      const inboxesOfBBefore = await listInboxes(apiB);
      for (const operation of withIds) {
        const foreign = await callOperation(apiB, operation, fillPath(operation.path, ids, true), { withBody: true, ids: fixtureIds() });
        const absent = await callOperation(apiB, operation, fillPath(operation.path, missing, true), { withBody: true, ids: missing });
        const context = `${operation.operationId} with workspace B's key on A's ids`;
        // Every sample body is valid, so a body validation 400 cannot stand in for the 404.
        expectError(foreign, 404, 'not_found', context);
        assert.equal(foreign.status, absent.status, `${context}: status differs from a nonexistent id`);
        const foreignError = (foreign.json as ErrorBody).error;
        const absentError = (absent.json as ErrorBody).error;
        assert.equal(foreignError.code, absentError.code, `${context}: code differs from a nonexistent id`);
        assert.equal(maskIds(foreignError.message, [ids.inbox, ids.message, ids.rule, ids.tag, ids.webhook, ids.delivery]), maskIds(absentError.message, [missing.inbox, missing.message, missing.rule, missing.tag, missing.webhook, missing.delivery]),
          `${context}: message reveals that the object exists elsewhere`);
        assert.ok(!foreignError.message.includes(workspaceA.id), `${context}: message names workspace A`);
        assert.deepEqual(Object.keys(foreign.json as object).sort(), Object.keys(absent.json as object).sort(), `${context}: envelope keys differ`);
      }
      // B's deletes, clears, rotations, tag and rule changes on A's ids did nothing to A (or to B).
      await assertFixtureUntouched('workspace B');
      assert.deepEqual(await listInboxes(apiB), inboxesOfBBefore);
      assert.deepEqual(expectOk(await apiB.get('/v1/tags')), [], 'B gained tags');
      assert.deepEqual(expectOk(await apiB.get('/v1/tag-rules')), [], 'B gained tag rules');
    });

    it('signed file links (security: []) answer 403 signature_invalid to a bogus signature and 400 without expires or signature; never 401, never the file', async () => {
      // The other keyless operations (/livez, /readyz, /metrics) are for operators, not signed; operations.test.ts has them.
      const publicOperations = OPENAPI.operations.filter((operation) => operation.public && operation.path.startsWith('/v1/files/'));
      assert.ok(publicOperations.length >= 4, 'openapi.yaml lost the signed file links');
      const anonymous = api.withKey(null);
      const future = Math.floor(Date.now() / 1000) + 3600;
      /** A 4xx envelope never carries the file: no message source, no HTML body, no PNG bytes. */
      const assertNoFile = (response: ApiResponse<unknown>, context: string) => {
        const text = response.bytes.toString('latin1');
        assert.ok(!text.includes(FIXTURE_SUBJECT) && !text.includes('isolation fixture') && !text.includes('PNG'), `${context}: the refusal carries the file`);
      };
      for (const operation of publicOperations) {
        assert.equal(operation.method, 'get', `${operation.operationId}: signed links are GET only`);
        // Positive control: the server's own link opens without a key, so the refusals below are the signature's doing.
        const link = new URL(await signedLinkFor(operation));
        const good = await anonymous.get(link.pathname + link.search);
        assert.equal(good.status, 200, `${operation.operationId} with its real signed link: ${good.bytes.toString().slice(0, 200)}`);
        assert.ok(good.bytes.length > 0, `${operation.operationId}: empty file`);

        const path = fillPath(operation.path, fixtureIds(), true);
        assert.equal(path, link.pathname, `${operation.operationId}: fillPath and the server's link disagree on the path`);
        const realExpires = Number(link.searchParams.get('expires'));
        const realSignature = String(link.searchParams.get('signature'));
        const bogus: [string, string][] = [
          ['a well-formed but wrong signature', `expires=${future}&signature=${'0'.repeat(64)}`],
          ['a signature that is not hex', `expires=${future}&signature=bogus`],
          ['an empty signature', `expires=${future}&signature=`],
          ['the real signature with another expiry', `expires=${realExpires + 1}&signature=${realSignature}`],
          ['the real signature in upper case', `expires=${realExpires}&signature=${realSignature.toUpperCase()}`],
        ];
        for (const [label, query] of bogus) {
          const response = await anonymous.get(`${path}?${query}`);
          expectError(response, 403, 'signature_invalid', `${operation.operationId} with ${label}`);
          assertNoFile(response, `${operation.operationId} with ${label}`);
        }
        // The real signature does not open another workspace's path (the signature covers the whole path).
        const otherWorkspacePath = path.replace(encodeURIComponent(workspaceA.id), encodeURIComponent(workspaceB.id));
        expectError(await anonymous.get(`${otherWorkspacePath}${link.search}`), 403, 'signature_invalid', `${operation.operationId} moved to workspace B`);
        // A valid API key does not stand in for the signature: still 403, never the file.
        const keyed = await api.get(`${path}?expires=${future}&signature=${'0'.repeat(64)}`);
        expectError(keyed, 403, 'signature_invalid', `${operation.operationId} with an API key and a bogus signature`);
        assertNoFile(keyed, `${operation.operationId} with an API key`);

        const incomplete: [string, string][] = [
          ['no query at all', ''],
          ['no signature', `?expires=${future}`],
          ['no expires', `?signature=${realSignature}`],
          ['an expiry that is not a number', `?expires=soon&signature=${realSignature}`],
        ];
        for (const [label, query] of incomplete) {
          const response = await anonymous.get(`${path}${query}`);
          expectError(response, 400, 'invalid_request', `${operation.operationId} with ${label}`);
          assertNoFile(response, `${operation.operationId} with ${label}`);
        }
      }
    });

    it("lists only the key's own workspace objects", async () => {
      const namesA = (await listInboxes(api)).map((inbox) => inbox.id);
      const namesB = (await listInboxes(apiB)).map((inbox) => inbox.id);
      assert.ok(namesA.includes(inboxA.id) && !namesA.includes(inboxB.id));
      assert.ok(namesB.includes(inboxB.id) && !namesB.includes(inboxA.id));
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('inboxes', () => {
    it('creates an inbox (201) whose SMTP password appears only in the create response', async () => {
      const name = uniqueName('created');
      const created = await createInbox(api, name);
      assert.equal(created.name, name);
      assert.match(created.id, /\S/);
      assert.equal(created.message_count, 0);
      assert.ok(Math.abs(Date.parse(created.created_at) - Date.now()) < 60_000, `created_at ${created.created_at} is not now`);
      assert.equal(created.smtp.username, created.smtp_username);
      assert.ok(created.smtp.password.length >= 16, 'a usable SMTP password');
      assert.deepEqual(created.smtp.ports, [server.smtpPort, server.smtpsPort]);
      assert.equal(await smtpLoginWorks(credentialsOf(created)), true, 'the returned credentials log in');

      const fetched = await api.get<Envelope<InboxJson>>(`/v1/inboxes/${created.id}`);
      const single = expectOk<Record<string, unknown>>(fetched);
      assert.ok(!('smtp' in single), 'GET /v1/inboxes/{id} includes smtp');
      assert.ok(!fetched.bytes.toString().includes(created.smtp.password), 'GET /v1/inboxes/{id} leaks the password');
      assert.deepEqual(single, { id: created.id, name, smtp_username: created.smtp_username, message_count: 0, unread_count: 0, chaos_enabled: false, created_at: created.created_at });

      const listed = await api.get('/v1/inboxes');
      const entry = expectOk<Record<string, unknown>[]>(listed).find((inbox) => inbox.id === created.id);
      assert.ok(entry, 'the new inbox is listed');
      assert.ok(!('smtp' in entry), 'the list includes smtp');
      assert.ok(!listed.bytes.toString().includes(created.smtp.password), 'the list leaks the password');
    });

    it('rotating credentials returns a new password once; the old one stops working', async () => {
      const inbox = await createInbox(api);
      const rotated = expectOk<InboxWithCredentialsJson>(await api.post(`/v1/inboxes/${inbox.id}/credentials`));
      assert.equal(rotated.id, inbox.id);
      assert.notEqual(rotated.smtp.password, inbox.smtp.password);
      assert.equal(await smtpLoginWorks(credentialsOf(inbox)), false, 'the old password still logs in');
      assert.equal(await smtpLoginWorks(credentialsOf(rotated)), true, 'the new password does not log in');
      const fetched = await api.get(`/v1/inboxes/${inbox.id}`);
      assert.ok(!fetched.bytes.toString().includes(rotated.smtp.password));
    });

    it('refuses invalid names with 400 invalid_request naming the name field, storing nothing', async () => {
      const invalid: [string, string][] = [
        ['empty', ''],
        ['101 characters', 'a'.repeat(101)],
        ['101 emoji', '😀'.repeat(101)],
        ['only spaces', '   '],
        ['only white space of several kinds', ' \u00a0\u3000 '],
        ['a NUL', 'a\u0000b'],
        ['a tab', 'a\tb'],
        ['a newline', 'line\nbreak'],
        ['a carriage return', 'a\rb'],
        ['an escape', 'a\u001bb'],
        ['DEL', 'a\u007fb'],
      ];
      await assertNothingChanges(api, async () => {
        for (const [label, name] of invalid) {
          const message = expectError(await api.post('/v1/inboxes', { name }), 400, 'invalid_request', `name with ${label}`);
          assert.match(message, /\bname\b/, `the message for a name with ${label} does not name the field: ${message}`);
        }
      });
    });

    it('refuses C1 control characters (U+0080 to U+009F) in names, as "no control characters" promises', async () => {
      // openapi.yaml describes InboxName as "no control characters"; U+0085 (NEL) and U+009B (CSI) are
      // control characters (Unicode category Cc) that a terminal or log viewer interprets.
      await assertNothingChanges(api, async () => {
        for (const name of ['a\u0085b', 'a\u009b31mb', '\u0080']) {
          const response = await api.post('/v1/inboxes', { name });
          const message = expectError(response, 400, 'invalid_request', `name ${JSON.stringify(name)}`);
          assert.match(message, /\bname\b/);
        }
      });
    });

    it('accepts names of exactly 100 characters, counting characters rather than UTF-16 units or bytes', async () => {
      const names = [
        'a'.repeat(100),
        '😀'.repeat(100), // 100 characters, 200 UTF-16 units, 400 bytes
        'é'.repeat(100), // 200 bytes in UTF-8
        'Staging – 受信箱 📬',
        ' padded name ', // spaces are fine when there is something else
      ];
      for (const name of names) {
        const created = await createInbox(api, name);
        assert.equal(created.name, name, 'the name round-trips unchanged');
        assert.equal(expectOk<InboxJson>(await api.get(`/v1/inboxes/${created.id}`)).name, name);
      }
    });

    it('refuses a duplicate name, also one differing only by case, with 409 already_exists', async () => {
      const name = uniqueName('Duplicate Name');
      await createInbox(api, name);
      await assertNothingChanges(api, async () => {
        for (const again of [name, name.toLowerCase(), name.toUpperCase()]) {
          expectError(await api.post('/v1/inboxes', { name: again }), 409, 'already_exists', `'${again}' after '${name}'`);
        }
      });
      // Case folding is not only ASCII.
      const unicode = uniqueName('ÄRGER-Ωμέγα');
      await createInbox(api, unicode);
      expectError(await api.post('/v1/inboxes', { name: unicode.toLowerCase() }), 409, 'already_exists', `'${unicode.toLowerCase()}'`);
      // Uniqueness is per workspace: B may use the same name.
      assert.equal((await createInbox(apiB, name)).name, name);
    });

    it('message_count reflects the mail each inbox received', async () => {
      const busy = await createInbox(api);
      const quiet = await createInbox(api);
      await sendMessages(credentialsOf(busy), 3, 'count');
      assert.equal(expectOk<InboxJson>(await api.get(`/v1/inboxes/${busy.id}`)).message_count, 3);
      const listed = await listInboxes(api);
      assert.equal(listed.find((inbox) => inbox.id === busy.id)?.message_count, 3);
      assert.equal(listed.find((inbox) => inbox.id === quiet.id)?.message_count, 0);
    });

    it('clearing an inbox deletes its messages and keeps the inbox and its SMTP credentials', async () => {
      const inbox = await createInbox(api);
      const sent = await sendMessages(credentialsOf(inbox), 3, 'clear');
      const cleared = expectOk<{ deleted_messages: number }>(await api.delete(`/v1/inboxes/${inbox.id}/messages`));
      assert.deepEqual(cleared, { deleted_messages: 3 });
      assert.equal(expectOk<InboxJson>(await api.get(`/v1/inboxes/${inbox.id}`)).message_count, 0);
      assert.deepEqual((await fetchPage(api, inbox.id, 50)).items, []);
      for (const id of sent) expectError(await api.get(`/v1/messages/${id}`), 404, 'not_found', `cleared message ${id}`);
      // The same credentials still deliver.
      const [after] = await sendMessages(credentialsOf(inbox), 1, 'after clear');
      const page = await fetchPage(api, inbox.id, 50);
      assert.deepEqual(page.items.map((message) => message.id), [after]);
      assert.deepEqual(expectOk(await api.delete(`/v1/inboxes/${inbox.id}/messages`)), { deleted_messages: 1 });
    });

    it('deleting an inbox reports deleted_messages, then the inbox and its messages answer 404', async () => {
      const inbox = await createInbox(api);
      const sent = await sendMessages(credentialsOf(inbox), 2, 'delete');
      const deleted = expectOk<{ deleted_messages: number }>(await api.delete(`/v1/inboxes/${inbox.id}`));
      assert.deepEqual(deleted, { deleted_messages: 2 });
      expectError(await api.get(`/v1/inboxes/${inbox.id}`), 404, 'not_found', 'deleted inbox');
      expectError(await api.get(`/v1/inboxes/${inbox.id}/messages`), 404, 'not_found', 'messages of a deleted inbox');
      expectError(await api.delete(`/v1/inboxes/${inbox.id}`), 404, 'not_found', 'deleting twice');
      for (const id of sent) {
        expectError(await api.get(`/v1/messages/${id}`), 404, 'not_found', `message ${id} of a deleted inbox`);
        expectError(await api.get(`/v1/messages/${id}/raw`), 404, 'not_found', `raw ${id} of a deleted inbox`);
      }
      assert.ok(!(await listInboxes(api)).some((listed) => listed.id === inbox.id), 'the deleted inbox is still listed');
      assert.equal(await smtpLoginWorks(credentialsOf(inbox)), false, "a deleted inbox's credentials still log in");
      // The name is free again.
      assert.equal((await createInbox(api, inbox.name)).name, inbox.name);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('request bodies (POST /v1/inboxes)', () => {
    const postRaw = (rawBody: string | Buffer | undefined, contentType?: string) =>
      api.request('POST', '/v1/inboxes', { ...(rawBody === undefined ? {} : { rawBody }), headers: contentType ? { 'content-type': contentType } : {} });

    it('malformed JSON answers 400 invalid_json', async () => {
      await assertNothingChanges(api, async () => {
        for (const raw of ['{"name":', '{name: "x"}', "{'name':'x'}", '{"name":"x",}', 'nul']) {
          expectError(await postRaw(raw, 'application/json'), 400, 'invalid_json', raw);
        }
      });
    });

    it('an unknown field answers 400 invalid_request naming it', async () => {
      await assertNothingChanges(api, async () => {
        const message = expectError(await api.post('/v1/inboxes', { name: uniqueName('extra'), extra: 1 }), 400, 'invalid_request');
        assert.match(message, /\bextra\b/, message);
      });
    });

    it('a wrong type or a body that is not an object answers 400 invalid_request', async () => {
      await assertNothingChanges(api, async () => {
        for (const name of [5, null, true, ['x'], { first: 'x' }]) {
          const message = expectError(await api.post('/v1/inboxes', { name }), 400, 'invalid_request', `name ${JSON.stringify(name)}`);
          assert.match(message, /\bname\b/, message);
        }
        for (const body of [[], 'name', 42, null]) {
          expectError(await postRaw(JSON.stringify(body), 'application/json'), 400, 'invalid_request', `body ${JSON.stringify(body)}`);
        }
        const missingName = expectError(await api.post('/v1/inboxes', {}), 400, 'invalid_request', 'body {}');
        assert.match(missingName, /\bname\b/, missingName);
      });
    });

    it('a missing or empty body answers 400 invalid_request', async () => {
      await assertNothingChanges(api, async () => {
        expectError(await postRaw(undefined), 400, 'invalid_request', 'no body');
        expectError(await postRaw('', 'application/json'), 400, 'invalid_request', 'empty JSON body');
        expectError(await postRaw('  \n', 'application/json'), 400, 'invalid_request', 'white space body');
      });
    });

    it('a body that is not application/json answers 415 unsupported_media_type', async () => {
      await assertNothingChanges(api, async () => {
        const valid = JSON.stringify({ name: uniqueName('media') });
        for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
          expectError(await postRaw(valid, type), 415, 'unsupported_media_type', type);
        }
      });
      // The same body with the right type is fine (positive control for the case above).
      expectOk(await postRaw(JSON.stringify({ name: uniqueName('media-ok') }), 'application/json; charset=utf-8'), 201);
    });

    it('a body over 1 MiB answers 413 payload_too_large', async () => {
      await assertNothingChanges(api, async () => {
        const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
        expectError(await postRaw(huge, 'application/json'), 413, 'payload_too_large');
        // Just over the limit, still well-formed JSON.
        const justOver = JSON.stringify({ name: 'y', pad: ' '.repeat(1024 * 1024) });
        expectError(await postRaw(justOver, 'application/json'), 413, 'payload_too_large', 'just over 1 MiB');
      });
    });

    it('a chunked body over 1 MiB answers 413, and the keep-alive connection stays usable unless the server says Connection: close', async () => {
      // Without Content-Length the server must count while reading; a client reuses its connection for the
      // next request unless the answer says Connection: close.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const authorization = `Bearer ${server.defaultKey}`;
        await assertNothingChanges(api, async () => {
          const half = Buffer.alloc(700 * 1024, 'x');
          const tooLarge = await rawRequest(server.httpUrl, agent, 'POST', '/v1/inboxes',
            { authorization, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [half, half]);
          assertMatchesContract('POST', '/v1/inboxes', tooLarge.status, String(tooLarge.headers['content-type']), tooLarge.body);
          assert.equal(tooLarge.status, 413, tooLarge.body.toString());
          assert.equal((JSON.parse(tooLarge.body.toString()) as ErrorBody).error.code, 'payload_too_large');
          if (tooLarge.headers.connection !== 'close') {
            const next = await rawRequest(server.httpUrl, agent, 'GET', '/v1/workspace', { authorization }).catch((error: Error) => error);
            assert.ok(!(next instanceof Error), `the 413 said Connection: ${tooLarge.headers.connection}, yet the next request on that connection failed: ${String(next)}`);
            assert.equal(next.status, 200);
          }
        });
      } finally {
        agent.destroy();
      }
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('query parameters (GET /v1/inboxes/{id}/messages)', () => {
    let inboxQ: InboxWithCredentialsJson;
    let inboxR: InboxWithCredentialsJson;

    before(async () => {
      inboxQ = await createInbox(api);
      inboxR = await createInbox(api);
      await sendMessages(credentialsOf(inboxQ), 2, 'query');
      await sendMessages(credentialsOf(inboxR), 2, 'other');
    });

    const list = (inboxId: string, query: string) => api.get(`/v1/inboxes/${inboxId}/messages?${query}`);

    it('limit outside 1..200 or not an integer answers 400 invalid_request naming limit', async () => {
      for (const limit of ['0', '201', 'abc', '1.5', '-1', '', '1e3', '5x']) {
        const message = expectError(await list(inboxQ.id, `limit=${encodeURIComponent(limit)}`), 400, 'invalid_request', `limit=${limit}`);
        assert.match(message, /\blimit\b/, message);
      }
    });

    it('limit 1 and 200 are accepted (boundaries)', async () => {
      const one = await list(inboxQ.id, 'limit=1');
      assert.equal(expectOk<unknown[]>(one).length, 1);
      assert.ok((one.json as Envelope<unknown>).next_cursor, 'a second message exists');
      const max = await list(inboxQ.id, 'limit=200');
      assert.equal(expectOk<unknown[]>(max).length, 2);
      assert.equal((max.json as Envelope<unknown>).next_cursor, undefined);
    });

    it('an unknown query parameter answers 400 invalid_request naming it', async () => {
      for (const name of ['foo', 'Limit', 'page']) {
        const message = expectError(await list(inboxQ.id, `${name}=1`), 400, 'invalid_request', name);
        assert.ok(message.includes(`'${name}'`) || new RegExp(`\\b${name}\\b`).test(message), message);
      }
    });

    it('a repeated parameter answers 400 invalid_request naming it', async () => {
      const message = expectError(await list(inboxQ.id, 'limit=1&limit=2'), 400, 'invalid_request', 'limit twice');
      assert.match(message, /\blimit\b/, message);
      expectError(await list(inboxQ.id, 'cursor=a&cursor=b'), 400, 'invalid_request', 'cursor twice');
    });

    it('a garbage cursor answers 400 invalid_cursor', async () => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const garbage = [
        'garbage',
        '!!!!',
        'x'.repeat(200),
        encode({ hello: 'world' }),
        encode([1, 2, 3]),
        encode({ v: 2, inbox: inboxQ.id, t: 1, id: 'msg_x' }),
        encode({ v: 1, inbox: inboxQ.id, t: 'yesterday', id: 'msg_x' }),
        Buffer.from('\u0000\u00ff').toString('base64url'),
      ];
      for (const cursor of garbage) {
        expectError(await list(inboxQ.id, `cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', `cursor ${cursor.slice(0, 30)}`);
      }
      // Empty or over-long cursors break the parameter schema itself.
      for (const cursor of ['', 'c'.repeat(501)]) {
        const response = await list(inboxQ.id, `cursor=${cursor}`);
        assert.equal(response.status, 400);
        assert.ok(['invalid_request', 'invalid_cursor'].includes((response.json as ErrorBody).error.code));
      }
    });

    it('a cursor from one inbox answers 400 invalid_cursor on another', async () => {
      const first = await fetchPage(api, inboxQ.id, 1);
      assert.ok(first.nextCursor);
      // Positive control: the cursor works where it came from.
      assert.equal((await fetchPage(api, inboxQ.id, 1, first.nextCursor)).items.length, 1);
      expectError(await list(inboxR.id, `limit=1&cursor=${encodeURIComponent(first.nextCursor)}`), 400, 'invalid_cursor', 'cursor of another inbox');
    });

    it('every operation refuses an unknown query parameter with a 400 that openapi.yaml declares', async () => {
      // openapi.yaml: "unknown query parameters are refused with 400 invalid_request"; the client fails
      // the request if that 400 is not a declared response of the operation.
      for (const operation of OPENAPI.operations.filter((candidate) => candidate.method === 'get' && !candidate.sessionOnly)) {
        // Signed links need their expires and signature, or the missing parameter is what gets named.
        const signed = operation.public && operation.path.startsWith('/v1/files/');
        const base = signed ? await signedLinkFor(operation) : fillPath(operation.path, fixtureIds(), true);
        const path = `${base}${base.includes('?') ? '&' : '?'}surely_unknown=1`;
        let response: ApiResponse<unknown>;
        try {
          response = await callOperation(api, operation, path);
        } catch (error) {
          assert.fail(`${operation.operationId}: ${(error as Error).message}`);
        }
        const message = expectError(response, 400, 'invalid_request', operation.operationId);
        assert.match(message, /surely_unknown/);
      }
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('paging', () => {
    let inboxP: InboxWithCredentialsJson;
    /** Ids in send order (oldest first). */
    let sentP: string[];

    before(async () => {
      inboxP = await createInbox(api);
      sentP = await sendMessages(credentialsOf(inboxP), 23, 'paging');
    });

    it('walks 23 messages with limit 5: each exactly once, newest first, next_cursor absent on the last page', async () => {
      const pages = await walkPages(api, inboxP.id, 5);
      assert.deepEqual(pages.map((page) => page.items.length), [5, 5, 5, 5, 3]);
      pages.forEach((page, index) => {
        const isLast = index === pages.length - 1;
        assert.equal(page.nextCursor === undefined, isLast, `page ${index}: next_cursor ${page.nextCursor === undefined ? 'absent' : 'present'}`);
      });
      const walked = pages.flatMap((page) => page.items);
      assert.equal(new Set(walked.map((message) => message.id)).size, walked.length, 'a message appeared twice');
      assertNewestFirst(walked);
      assert.deepEqual(walked.map((message) => message.id), [...sentP].reverse());
      assert.ok(walked.every((message) => message.inbox_id === inboxP.id));
    });

    it('limit 200 and the default limit return all 23 on one page without next_cursor', async () => {
      const max = await fetchPage(api, inboxP.id, 200);
      assert.deepEqual(max.items.map((message) => message.id), [...sentP].reverse());
      assert.equal(max.nextCursor, undefined);
      const byDefault = await api.get<Envelope<MessageSummaryJson[]>>(`/v1/inboxes/${inboxP.id}/messages`);
      assert.equal(expectOk<MessageSummaryJson[]>(byDefault).length, 23);
      assert.equal(byDefault.json.next_cursor, undefined);
    });

    it('stays stable while 5 new messages arrive between page fetches: exactly the messages of the first page visit, once each', async () => {
      const inbox = await createInbox(api);
      // 15 is a multiple of the page size: the walk must also end without an empty trailing page.
      const existing = await sendMessages(credentialsOf(inbox), 15, 'stable');
      const arrivedLater: string[] = [];
      const pages = await walkPages(api, inbox.id, 5, async () => {
        arrivedLater.push(...(await sendMessages(credentialsOf(inbox), 5, 'late')));
      });
      assert.equal(pages.length, 3, 'three pages of five');
      assert.equal(arrivedLater.length, 10, 'messages really arrived during the walk');
      const walked = pages.flatMap((page) => page.items);
      assertNewestFirst(walked);
      assert.deepEqual(walked.map((message) => message.id), [...existing].reverse(), 'the walk is not exactly the messages that existed at the first page');
      // The new messages are there; they are simply in front of the walk.
      const fresh = await fetchPage(api, inbox.id, 200);
      assert.deepEqual(fresh.items.map((message) => message.id), [...existing, ...arrivedLater].reverse());
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('workspace and usage', () => {
    it("GET /v1/workspace returns the key's workspace: default for the default key, B for B's key", async () => {
      const listed = admin<{ id: string; name: string }[]>(server.dataDir, ['workspace', 'list']);
      const defaultWorkspace = listed.find((workspace) => workspace.name === 'default');
      assert.ok(defaultWorkspace);
      assert.deepEqual(expectOk(await api.get('/v1/workspace')), { id: defaultWorkspace.id, name: 'default', access: 'read_write' });
      assert.deepEqual(expectOk(await apiB.get('/v1/workspace')), { id: workspaceB.id, name: 'other', access: 'read_write' });
      // A read key sees the same workspace and what it may do; role is only for dashboard sessions.
      assert.deepEqual(expectOk(await api.withKey(readKey).get('/v1/workspace')), { id: defaultWorkspace.id, name: 'default', access: 'read' });
    });

    it('GET /v1/usage: period_start is the month start, used counts received mail (deleted too), inboxes are counted', async () => {
      const fresh = createWorkspace(server.dataDir, uniqueName('usage'));
      const client = api.withKey(fresh.key.key);
      const before = new Date();
      const empty = expectOk<UsageJson>(await client.get('/v1/usage'));
      assert.equal(empty.used, 0);
      assert.equal(empty.inboxes, 0);
      assert.equal(empty.monthly_limit, null, 'the default plan is unlimited');
      assert.equal(empty.member_limit, null);

      const inbox = await createInbox(client);
      await createInbox(client);
      await sendMessages(credentialsOf(inbox), 3, 'usage');
      expectOk(await client.delete(`/v1/inboxes/${inbox.id}/messages`));
      const usage = expectOk<UsageJson>(await client.get('/v1/usage'));
      const after = new Date();
      assert.ok([currentPeriodStart(before), currentPeriodStart(after)].includes(new Date(usage.period_start).toISOString()), `period_start ${usage.period_start}`);
      assert.equal(usage.used, 3, 'deleted messages still count toward the month');
      assert.equal(usage.inboxes, 2);
      // Another workspace's mail is not counted here.
      assert.equal(expectOk<UsageJson>(await apiB.get('/v1/usage')).inboxes, (await listInboxes(apiB)).length);
    });

    it('GET /v1/usage reports the plan limits of a limited plan', async () => {
      const free = createWorkspace(server.dataDir, uniqueName('free'), 'free');
      const usage = expectOk<UsageJson>(await api.withKey(free.key.key).get('/v1/usage'));
      assert.equal(usage.monthly_limit, 500);
      assert.equal(usage.retention_days, 7);
      assert.equal(usage.member_limit, 1);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('unknown routes and methods', () => {
    it('an unknown route of the API answers 404 not_found in the envelope', async () => {
      for (const path of ['/v1/nope', '/v1', `/v1/inboxes/${inboxA.id}/nope`, '/v1/workspace/extra']) {
        expectError(await api.get(path), 404, 'not_found', path);
      }
    });

    it('a GET outside the API is the dashboard\'s, whose own router shows what it does not know', async () => {
      for (const path of ['/', '/v2/workspace', '/no/such/page']) {
        const response = await fetch(`${server.httpUrl}${path}`);
        assert.equal(response.status, 200, path);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
        assert.match(await response.text(), /<div id="app">/, path);
      }
    });

    it('a method a known path does not support answers 404 in the envelope, never 500', async () => {
      const paths = [...new Set(OPENAPI.operations.map((operation) => operation.path))];
      let tried = 0;
      for (const template of paths) {
        const declared = new Set(OPENAPI.operations.filter((operation) => operation.path === template).map((operation) => operation.method));
        const path = fillPath(template, fixtureIds(), false);
        // A literal segment may also fill another template's parameter (DELETE /v1/invitations/lookup is revoking the invitation 'lookup').
        const servedElsewhere = (method: string) => OPENAPI.operations.some((operation) => operation.method === method && new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
        for (const method of ALL_METHODS.filter((candidate) => !declared.has(candidate) && !servedElsewhere(candidate))) {
          tried++;
          const response = await api.request(method.toUpperCase(), path, method === 'get' || method === 'delete' ? {} : { body: { name: 'x' } });
          expectError(response, 404, 'not_found', `${method.toUpperCase()} ${template}`);
        }
      }
      assert.ok(tried > 0);
      // The inbox the PUT/PATCH attempts pointed at is untouched.
      assert.equal(expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxA.id}`)).name, inboxA.name);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe('oversized and malformed requests', () => {
    it('a schema-valid q that percent-encodes to ~18 KB reaches the query parser, past Node\'s default 16 KiB of headers', async () => {
      const q = '€'.repeat(2000);
      const response = await api.get(`/v1/inboxes/${inboxA.id}/messages?q=${encodeURIComponent(q)}`);
      // Read and parsed, so it meets the query's own bound on needle characters rather than the HTTP parser's.
      assert.match(expectError(response, 400, 'invalid_query'), /its text terms hold 2000 characters; at most 512 per query/);
      assert.equal(expectOk<unknown[]>(await api.get(`/v1/inboxes/${inboxA.id}/messages?q=${encodeURIComponent('€'.repeat(512))}`)).length, 0);
    });

    it('a request line over 64 KiB gets a 400 in the envelope, not a bare status line', async () => {
      const response = await fetch(`${server.httpUrl}/v1/inboxes/${inboxA.id}/messages?q=${'a'.repeat(70_000)}`, { headers: { authorization: `Bearer ${server.defaultKey}` } });
      assert.equal(response.status, 400);
      const body = (await response.json()) as ErrorBody;
      assert.deepEqual([body.success, body.error.code], [false, 'invalid_request']);
      assert.match(body.error.message, /64 KiB/);
    });

    it('a malformed Host header gets 400 invalid_request instead of links built from it', async () => {
      const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
        const request = http.request(`${server.httpUrl}/v1/messages/${messageA}`, { headers: { host: 'x y', authorization: `Bearer ${server.defaultKey}` } }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
          response.on('end', () => resolve({ code: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        request.end();
      });
      assert.equal(status.code, 400, status.body);
      assert.equal((JSON.parse(status.body) as { error: { code: string } }).error.code, 'invalid_request');
    });

    it('refuses __proto__ as an unknown query parameter', async () => {
      expectError(await api.get('/v1/workspace?__proto__=x'), 400, 'invalid_request');
    });
  });

  describe('garbage path ids', () => {
    const operationsWithIds = () => OPENAPI.operations.filter((operation) => hasPathParameters(operation) && !operation.sessionOnly);

    /** Every operation with an id, that id replaced by `garbage`; answers must be declared 4xx envelopes. */
    async function tryGarbage(garbage: string, allowed: Record<number, string[]>): Promise<void> {
      for (const operation of operationsWithIds()) {
        const path = operation.path.replace(/\{\w+\}/g, garbage);
        let response: ApiResponse<unknown>;
        try {
          response = await callOperation(api, operation, path);
        } catch (error) {
          // The client's message repeats the path; shorten the garbage so the failure stays readable.
          assert.fail(`${operation.operationId}: ${(error as Error).message.split(garbage).join(`<${garbage.slice(0, 12)}... (${garbage.length} chars)>`)}`);
        }
        const context = `${operation.operationId} with id ${garbage.slice(0, 40)}`;
        assert.ok(response.status in allowed, `${context}: status ${response.status} ${response.bytes.toString().slice(0, 200)}`);
        expectError(response, response.status, (response.json as ErrorBody).error.code, context);
        assert.ok(allowed[response.status]!.includes((response.json as ErrorBody).error.code), `${context}: code ${(response.json as ErrorBody).error.code}`);
      }
    }

    it('a 500-character id answers a declared 400 or 404 with a code', async () => {
      await tryGarbage('x'.repeat(500), { 400: ['invalid_request'], 404: ['not_found'] });
      assert.ok(expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxA.id}`)));
    });

    it('percent-encoded junk answers a 4xx envelope, never 500', async () => {
      for (const junk of ['%E0%A4%A', '%ZZ', '%', '%00', '%C0%AF', '%F0%9F', '%2F..%2Fworkspace', '%0D%0AX-Injected:%201', "'%20OR%201=1--"]) {
        await tryGarbage(junk, { 400: ['invalid_request'], 404: ['not_found'] });
      }
      assert.ok(expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxA.id}`)));
    });
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('HTTP API (e2e): plan inbox limit, dedicated server', () => {
  const plans = JSON.stringify({ two: { inbox_limit: 2 } });
  let server: StartedServer;

  before(async () => {
    server = await startServer({ env: { SANDBOX_PLANS: plans } });
  });

  after(async () => {
    await server?.stop();
  });

  it('the third inbox on a plan with inbox_limit 2 answers 402 limit_reached and is not created; deleting one frees a slot', async () => {
    // The CLI validates the plan name against its own configuration, so it needs the same plans.
    const limited = createWorkspace(server.dataDir, 'limited', 'two', { SANDBOX_PLANS: plans });
    const api = new ApiClient(server.httpUrl, limited.key.key);
    const first = await createInbox(api, 'one');
    await createInbox(api, 'two');
    expectError(await api.post('/v1/inboxes', { name: 'three' }), 402, 'limit_reached', 'third inbox');
    assert.deepEqual((await listInboxes(api)).map((inbox) => inbox.name), ['one', 'two']);
    assert.equal(expectOk<UsageJson>(await api.get('/v1/usage')).inboxes, 2);

    // The limit is per workspace: the unlimited default workspace is not affected.
    assert.ok(server.defaultKey);
    const unlimited = new ApiClient(server.httpUrl, server.defaultKey);
    for (const name of ['a', 'b', 'c']) await createInbox(unlimited, name);

    expectOk(await api.delete(`/v1/inboxes/${first.id}`));
    assert.equal((await createInbox(api, 'three')).name, 'three');
  });
});

describe('HTTP API (e2e): rate limit, dedicated server', () => {
  const plans = JSON.stringify({ slow: { requests_per_second: 2 } });
  let server: StartedServer;

  before(async () => {
    server = await startServer({ env: { SANDBOX_PLANS: plans } });
  });

  after(async () => {
    await server?.stop();
  });

  it('past requests_per_second answers 429 rate_limited with an integer Retry-After; another workspace is unaffected', async () => {
    const slowA = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, 'slow-a', 'slow', { SANDBOX_PLANS: plans }).key.key);
    const slowB = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, 'slow-b', 'slow', { SANDBOX_PLANS: plans }).key.key);

    const burst = await Promise.all(Array.from({ length: 10 }, () => slowA.get('/v1/workspace')));
    const limited = burst.filter((response) => response.status === 429);
    assert.ok(limited.length >= 1, `no 429 among ${burst.map((response) => response.status).join(',')}`);
    assert.ok(burst.every((response) => response.status === 200 || response.status === 429), burst.map((response) => response.status).join(','));
    assert.ok(burst.some((response) => response.status === 200), 'the burst capacity lets some requests through');
    let retryAfter = 0;
    for (const response of limited) {
      expectError(response, 429, 'rate_limited');
      const header = response.headers.get('retry-after');
      assert.match(String(header), /^[1-9]\d*$/, `Retry-After '${header}' is not a positive integer`);
      retryAfter = Math.max(retryAfter, Number(header));
    }

    // Buckets are per workspace: B still gets its own full allowance right after A's burst.
    for (let i = 0; i < 2; i++) expectOk(await slowB.get('/v1/workspace'), 200, `workspace B request ${i + 1}`);

    // A recovers within about Retry-After seconds.
    await pollUntil(async () => (await slowA.get('/v1/workspace')).status === 200, (retryAfter + 2) * 1000, 'workspace A to be allowed again');
  });
});
