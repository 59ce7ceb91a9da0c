// End to end, both profiles: the Access tag's role matrix, cell by cell. Every operation in openapi.yaml is called
// with a read key, a read_write key and sessions of a member, an admin and an owner; the answer must be what the
// matrix says (allowed: no 401 and no access refusal; denied: 403 with the exact code). Then the CSRF rule on every
// operation a session can change something with, and the ownership rules that live inside operations.
import { strict as assert } from 'node:assert';
import { loadOpenApi, type OperationSpec } from '../../src/http/openapi.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import type { ApiKeyWithSecretJson, ErrorEnvelopeJson, WorkspaceJson } from '../support/api-json.js';
import { inviteAndSignIn, signInFirstOwner, SessionClient, OWNER_EMAIL } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

type Role = 'owner' | 'admin' | 'member';
type Caller = { kind: 'key'; access: 'read' | 'read_write' } | { kind: 'session'; role: Role };

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };
/** The codes that mean "not you": an allowed call never answers with one of them. */
const ACCESS_CODES = new Set(['unauthorized', 'session_required', 'role_required', 'read_only_key', 'csrf_failed']);

const changesState = (operation: OperationSpec) => operation.method !== 'get';

/**
 * The matrix of openapi.yaml's Access tag, as the operation's security, x-min-role and x-read-only say: the status
 * and code of the refusal, or null when the caller is let through.
 */
function expectedRefusal(operation: OperationSpec, caller: Caller): { status: number; code: string } | null {
  if (caller.kind === 'key') {
    if (operation.sessionOnly) return { status: 403, code: 'session_required' };
    if (changesState(operation) && !operation.readOnly && caller.access === 'read') return { status: 403, code: 'read_only_key' };
    return null;
  }
  // A key-only operation (/mcp) does not look at the session cookie: the request carries no credentials it takes.
  if (operation.keyOnly) return { status: 401, code: 'unauthorized' };
  return RANK[caller.role] >= RANK[operation.minRole] ? null : { status: 403, code: 'role_required' };
}

/** A path with every parameter filled by a value that names nothing: the call reaches its operation and finds nothing. */
function concretePath(operation: OperationSpec): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'email' ? 'nobody%40example.com' : name === 'index' ? '0' : `none_${name}`));
}

function describeResponse(response: ApiResponse<unknown>): string {
  return `${response.status} ${response.bytes.toString().slice(0, 200)}`;
}

describe(`access: the role matrix of openapi.yaml (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const { operations } = loadOpenApi();
  let server: StartedServer;
  let owner: SessionClient;
  let sessions: Record<Role, SessionClient>;
  let keys: Record<'read' | 'read_write', ApiClient>;
  const passwords: Record<Role, string> = { owner: 'owner password 123', admin: 'admin password 123', member: 'member password 123' };
  const emails: Record<Role, string> = { owner: OWNER_EMAIL, admin: 'admin@example.com', member: 'member@example.com' };

  before(async () => {
    server = await startServer();
    owner = await signInFirstOwner(server);
    sessions = {
      owner,
      admin: await inviteAndSignIn(owner, emails.admin, 'admin', passwords.admin),
      member: await inviteAndSignIn(owner, emails.member, 'member', passwords.member),
    };
    const readKey = expectOk<ApiKeyWithSecretJson>(await owner.request('POST', '/v1/api-keys', { body: { access: 'read', name: 'matrix read' } }), 201);
    const writeKey = expectOk<ApiKeyWithSecretJson>(await owner.request('POST', '/v1/api-keys', { body: { access: 'read_write', name: 'matrix write' } }), 201);
    keys = { read: new ApiClient(server.httpUrl, readKey.key), read_write: new ApiClient(server.httpUrl, writeKey.key) };
  });

  after(async () => {
    await server?.stop();
  });

  /** Signing out ends the session it is made with, so each sign-out cell gets a session of its own. */
  async function callerClient(caller: Caller, operation: OperationSpec): Promise<(method: string, path: string, body?: unknown) => Promise<ApiResponse<unknown>>> {
    if (caller.kind === 'key') return (method, path, body) => keys[caller.access].request(method, path, { body });
    let client = sessions[caller.role];
    if (operation.operationId === 'signOut') {
      client = new SessionClient(server.httpUrl);
      expectOk(await client.signIn(emails[caller.role], passwords[caller.role]), 201);
    }
    return (method, path, body) => client.request(method, path, { body });
  }

  const callers: Caller[] = [
    { kind: 'key', access: 'read' },
    { kind: 'key', access: 'read_write' },
    { kind: 'session', role: 'member' },
    { kind: 'session', role: 'admin' },
    { kind: 'session', role: 'owner' },
  ];

  it('answers every operation for every caller as the matrix says', async () => {
    let cells = 0;
    for (const operation of operations) {
      const path = concretePath(operation);
      const body = operation.requestBodySchema ? {} : undefined;
      if (operation.public) {
        // No credentials needed: nobody is refused for who they are.
        const response = await new ApiClient(server.httpUrl, null).request(operation.method.toUpperCase(), path, { body });
        const code = (response.json as ErrorEnvelopeJson | undefined)?.error?.code;
        assert.ok(response.status !== 401 && !(code && ACCESS_CODES.has(code)), `${operation.operationId} without credentials: ${describeResponse(response)}`);
        cells += 1;
        continue;
      }
      for (const caller of callers) {
        const call = await callerClient(caller, operation);
        const response = await call(operation.method.toUpperCase(), path, body);
        const who = `${operation.operationId} as ${caller.kind === 'key' ? `${caller.access} key` : caller.role}`;
        const refusal = expectedRefusal(operation, caller);
        if (refusal) {
          expectError(response, refusal.status, refusal.code, who);
        } else {
          const code = (response.json as ErrorEnvelopeJson | undefined)?.error?.code;
          assert.ok(response.status !== 401 && !(code && ACCESS_CODES.has(code)), `${who}: expected to be allowed, got ${describeResponse(response)}`);
        }
        cells += 1;
      }
    }
    assert.ok(cells > 5 * 60, `only ${cells} cells`);
    // The sessions survived the walk (nothing above ended them).
    expectOk(await sessions.member.get('/v1/me'));
  });

  it('refuses a session\'s state-changing request without the CSRF token or from another origin, on every such operation', async () => {
    // Key-only operations take no session at all (the matrix above checks they answer it 401).
    for (const operation of operations.filter((candidate) => !candidate.public && !candidate.keyOnly && changesState(candidate))) {
      const path = concretePath(operation);
      const body = operation.requestBodySchema ? {} : undefined;
      const method = operation.method.toUpperCase();
      expectError(await owner.request(method, path, { body, withoutCsrf: true }), 403, 'csrf_failed', `${operation.operationId} without X-CSRF-Token`);
      expectError(await owner.request(method, path, { body, origin: 'https://evil.example' }), 403, 'csrf_failed', `${operation.operationId} from another origin`);
      expectError(await owner.request(method, path, { body, origin: '' }), 403, 'csrf_failed', `${operation.operationId} without Origin`);
    }
    // Sign-in takes no credentials, but another site's page may not drive it either.
    expectError(await new SessionClient(server.httpUrl).request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: passwords.owner }, origin: 'https://evil.example' }), 403, 'csrf_failed');
    // GET never needs the token.
    const anonymousCsrf = new SessionClient(server.httpUrl);
    anonymousCsrf.cookie = owner.cookie;
    expectOk(await anonymousCsrf.get('/v1/me'));
  });

  it('sets the role on GET /v1/workspace for sessions only', async () => {
    for (const role of ['member', 'admin', 'owner'] as const) {
      assert.equal(expectOk<WorkspaceJson>(await sessions[role].get('/v1/workspace')).role, role);
    }
    assert.equal(expectOk<WorkspaceJson>(await keys.read_write.get('/v1/workspace')).role, undefined);
  });

  it('keeps ownership to owners inside the member and invitation operations', async () => {
    const { admin, member } = sessions;
    expectError(await admin.request('PUT', `/v1/members/${encodeURIComponent(OWNER_EMAIL)}`, { body: { role: 'admin' } }), 403, 'role_required', 'admin demoting an owner');
    expectError(await admin.request('PUT', `/v1/members/${encodeURIComponent(emails.member)}`, { body: { role: 'owner' } }), 403, 'role_required', 'admin making an owner');
    expectError(await admin.request('DELETE', `/v1/members/${encodeURIComponent(OWNER_EMAIL)}`), 403, 'role_required', 'admin removing an owner');
    expectError(await admin.request('POST', '/v1/invitations', { body: { email: 'new-owner@example.com', role: 'owner' } }), 403, 'role_required', 'admin inviting an owner');
    expectError(await member.request('DELETE', `/v1/members/${encodeURIComponent(emails.admin)}`), 403, 'role_required', 'member removing an admin');
    expectError(await member.request('PUT', `/v1/members/${encodeURIComponent(emails.member)}`, { body: { role: 'admin' } }), 403, 'role_required', 'member promoting themself');
    // What admins may do: member <-> admin of non-owners.
    expectOk(await admin.request('PUT', `/v1/members/${encodeURIComponent(emails.member)}`, { body: { role: 'admin' } }));
    expectOk(await admin.request('PUT', `/v1/members/${encodeURIComponent(emails.member)}`, { body: { role: 'member' } }));
    // Owners may grant ownership.
    expectOk(await owner.request('POST', '/v1/invitations', { body: { email: 'new-owner@example.com', role: 'owner' } }), 201);
  });
});
