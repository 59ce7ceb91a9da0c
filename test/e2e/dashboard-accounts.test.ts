// End to end, both profiles: people and sessions through the dashboard's API. The first start's link, signing in and
// out, one answer for unknown emails and wrong passwords, throttling, password changes ending other sessions,
// invitations, keys made with a session, the last owner, and the audit log of it all.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { ApiKeyJson, ApiKeyWithSecretJson, AuditEntryJson, InvitationJson, InvitationPreviewJson, InvitationWithLinkJson, MeJson, MemberJson, PlanWithUsageJson, SessionInfoJson, WorkspaceJson } from '../support/api-json.js';
import { admin } from '../support/admin.js';
import { firstRunLink, linkToken, OWNER_EMAIL, OWNER_PASSWORD, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

describe(`dashboard accounts and sessions (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let owner: SessionClient;

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    await server?.stop();
  });

  it('first start: the printed link sets the owner\'s password once; signing in shows role owner', async () => {
    const url = firstRunLink(server);
    assert.match(url, new RegExp(`^${server.httpUrl}/set-password#token=[A-Za-z0-9_-]{43}$`));
    const anonymous = new SessionClient(server.httpUrl);
    const token = linkToken(url);
    assert.equal(expectOk<{ email: string }>(await anonymous.request('POST', '/v1/password-links/lookup', { body: { token } })).email, OWNER_EMAIL);
    expectError(await anonymous.request('POST', '/v1/password-links/accept', { body: { token, password: 'short' } }), 400, 'invalid_request');
    expectOk(await anonymous.request('POST', '/v1/password-links/accept', { body: { token, password: OWNER_PASSWORD } }));
    expectError(await anonymous.request('POST', '/v1/password-links/accept', { body: { token, password: OWNER_PASSWORD } }), 400, 'invalid_link');

    owner = new SessionClient(server.httpUrl);
    const signedIn = await owner.signIn(OWNER_EMAIL.toUpperCase(), OWNER_PASSWORD);
    expectOk(signedIn, 201);
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('sbx_session='));
    assert.ok(cookie, 'no session cookie');
    assert.match(cookie, /; path=\/;/i);
    assert.match(cookie, /httponly/i);
    assert.match(cookie, /samesite=lax/i);
    assert.doesNotMatch(cookie, /secure/i);
    const workspace = expectOk<WorkspaceJson>(await owner.get('/v1/workspace'));
    assert.equal(workspace.role, 'owner');
    const me = expectOk<MeJson>(await owner.get('/v1/me'));
    assert.equal(me.person.email, OWNER_EMAIL);
    assert.deepEqual(me.workspaces, [{ id: workspace.id, name: workspace.name, role: 'owner' }]);
    assert.equal(me.csrf_token, owner.csrfToken);
    // The API itself works with the session, like a key.
    expectOk(await owner.request('POST', '/v1/inboxes', { body: { name: 'from the dashboard' } }), 201);
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const client = new SessionClient(server.httpUrl);
    const wrong = await client.signIn(OWNER_EMAIL, 'not the password');
    const unknown = await client.signIn('nobody@example.com', 'not the password');
    expectError(wrong, 401, 'invalid_credentials');
    expectError(unknown, 401, 'invalid_credentials');
    assert.deepEqual(wrong.json, unknown.json);
    assert.equal(client.cookie, null);
  });

  it('throttles sign-in per account with 429 and Retry-After, right password or not', async () => {
    const email = 'throttled@example.com';
    admin(server.dataDir, ['member', 'add', '--workspace', owner.me!.workspace.id, '--email', email, '--role', 'member']);
    const link = admin<{ set_password_url: string }>(server.dataDir, ['member', 'password', '--email', email]);
    const password = 'throttled password 1';
    const client = new SessionClient(server.httpUrl);
    expectOk(await client.request('POST', '/v1/password-links/accept', { body: { token: linkToken(link.set_password_url), password } }));
    for (let attempt = 1; attempt <= 5; attempt += 1) expectError(await client.signIn(email, `wrong ${attempt}`), 401, 'invalid_credentials', `attempt ${attempt}`);
    const refused = await client.signIn(email, password);
    expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.equal(client.cookie, null);
  });

  it('ends the session at sign-out, and other sessions at a password change', async () => {
    const first = new SessionClient(server.httpUrl);
    expectOk(await first.signIn(OWNER_EMAIL, OWNER_PASSWORD), 201);
    const second = new SessionClient(server.httpUrl);
    expectOk(await second.signIn(OWNER_EMAIL, OWNER_PASSWORD), 201);
    const listed = expectOk<SessionInfoJson[]>(await first.get('/v1/me/sessions'));
    assert.ok(listed.some((session) => session.id === first.me!.session.id && session.current));
    assert.ok(listed.some((session) => session.id === second.me!.session.id && !session.current));

    const secondCookie = second.cookie;
    const signOut = await second.request('DELETE', '/v1/session');
    expectOk(signOut);
    assert.match(signOut.headers.getSetCookie().join('\n'), /sbx_session=;.*expires=Thu, 01 Jan 1970/i);
    const stale = new SessionClient(server.httpUrl);
    stale.cookie = secondCookie;
    expectError(await stale.get('/v1/me'), 401, 'unauthorized');

    const third = new SessionClient(server.httpUrl);
    expectOk(await third.signIn(OWNER_EMAIL, OWNER_PASSWORD), 201);
    const thirdCookie = third.cookie;
    expectError(await first.request('PUT', '/v1/me/password', { body: { current_password: 'not it at all', new_password: 'a new password 456' } }), 401, 'invalid_credentials');
    const changed = expectOk<{ ended_sessions: number }>(await first.request('PUT', '/v1/me/password', { body: { current_password: OWNER_PASSWORD, new_password: 'a new password 456' } }));
    assert.ok(changed.ended_sessions >= 2, `ended ${changed.ended_sessions}`);
    third.cookie = thirdCookie;
    expectError(await third.get('/v1/me'), 401, 'unauthorized');
    expectError(await owner.get('/v1/me'), 401, 'unauthorized');
    expectOk(await first.get('/v1/me'));
    expectError(await first.signIn(OWNER_EMAIL, OWNER_PASSWORD), 401, 'invalid_credentials');
    owner = new SessionClient(server.httpUrl);
    expectOk(await owner.signIn(OWNER_EMAIL, 'a new password 456'), 201);
  });

  it('invites a new person: lookup, accept once, sign in with the role', async () => {
    const invitation = expectOk<InvitationWithLinkJson>(await owner.request('POST', '/v1/invitations', { body: { email: 'Invited@Example.com', role: 'member' } }), 201);
    assert.equal(invitation.email, 'invited@example.com');
    assert.match(invitation.url, new RegExp(`^${server.httpUrl}/accept-invitation#token=`));
    const token = linkToken(invitation.url);
    const invitee = new SessionClient(server.httpUrl);
    const preview = expectOk<InvitationPreviewJson>(await invitee.request('POST', '/v1/invitations/lookup', { body: { token } }));
    assert.deepEqual(preview, { workspace_name: owner.me!.workspace.name, email: 'invited@example.com', role: 'member', expires_at: invitation.expires_at });
    expectOk(await invitee.request('POST', '/v1/invitations/accept', { body: { token, password: 'invited password 1' } }));
    expectError(await invitee.request('POST', '/v1/invitations/accept', { body: { token, password: 'invited password 1' } }), 400, 'invalid_link');
    expectOk(await invitee.signIn('invited@example.com', 'invited password 1'), 201);
    assert.equal(expectOk<WorkspaceJson>(await invitee.get('/v1/workspace')).role, 'member');
    const listed = expectOk<InvitationJson[]>(await owner.get('/v1/invitations'));
    assert.equal(listed.find((entry) => entry.id === invitation.id)?.status, 'accepted');
    const members = expectOk<MemberJson[]>(await owner.get('/v1/members'));
    assert.deepEqual(members.find((member) => member.email === 'invited@example.com'), { email: 'invited@example.com', role: 'member', joined_at: members.find((member) => member.email === 'invited@example.com')!.joined_at, has_account: true });
    // A member may not manage keys.
    expectError(await invitee.get('/v1/api-keys'), 403, 'role_required');
    // A member may leave.
    expectOk(await invitee.request('DELETE', `/v1/members/${encodeURIComponent('invited@example.com')}`));
    expectError(await invitee.get('/v1/me'), 401, 'unauthorized');
  });

  it('makes keys with a session that work as Bearer keys until revoked', async () => {
    const created = expectOk<ApiKeyWithSecretJson>(await owner.request('POST', '/v1/api-keys', { body: { access: 'read', name: 'CI reader' } }), 201);
    assert.equal(created.prefix, created.key.slice(0, 12));
    const key = new ApiClient(server.httpUrl, created.key);
    expectOk(await key.get('/v1/inboxes'));
    const listed = expectOk<ApiKeyJson[]>(await owner.get('/v1/api-keys'));
    const entry = listed.find((candidate) => candidate.id === created.id);
    assert.equal(entry?.name, 'CI reader');
    assert.ok(entry?.last_used_at, 'last_used_at was not set by using the key');
    // A key cannot reach the dashboard's own endpoints.
    expectError(await key.get('/v1/api-keys'), 403, 'session_required');
    expectOk(await owner.request('DELETE', `/v1/api-keys/${created.id}`));
    expectError(await key.get('/v1/inboxes'), 401, 'unauthorized');
    expectError(await owner.request('DELETE', `/v1/api-keys/${created.id}`), 404, 'not_found');
  });

  it('keeps the last owner from leaving', async () => {
    expectError(await owner.request('DELETE', `/v1/members/${encodeURIComponent(OWNER_EMAIL)}`), 409, 'last_owner');
    expectError(await owner.request('PUT', `/v1/members/${encodeURIComponent(OWNER_EMAIL)}`, { body: { role: 'admin' } }), 409, 'last_owner');
  });

  it('shows the plan with how to change it', async () => {
    const plan = expectOk<PlanWithUsageJson>(await owner.get('/v1/plan'));
    assert.equal(plan.name, 'unlimited');
    assert.match(plan.how_to_change, /operator/);
  });

  it('lists the actions in the audit log, newest first, page by page', async () => {
    const entries: AuditEntryJson[] = [];
    let cursor: string | undefined;
    do {
      const response = await owner.get(`/v1/audit-log?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      entries.push(...expectOk<AuditEntryJson[]>(response));
      cursor = (response.json as { next_cursor?: string }).next_cursor;
    } while (cursor);
    const actions = new Set(entries.map((entry) => entry.action));
    for (const action of ['person.password_set', 'session.signed_in', 'person.password_changed', 'invitation.created', 'invitation.accepted', 'member.left', 'api_key.created', 'api_key.revoked']) {
      assert.ok(actions.has(action as AuditEntryJson['action']), `no ${action} in ${[...actions].join(', ')}`);
    }
    const times = entries.map((entry) => Date.parse(entry.at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    assert.equal(entries.find((entry) => entry.action === 'api_key.created')?.actor, OWNER_EMAIL);
    expectError(await owner.get('/v1/audit-log?cursor=garbage'), 400, 'invalid_cursor');
  });
});
