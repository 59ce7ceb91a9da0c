// End to end, both profiles: accounts belong to their people. An admin of one workspace cannot claim, through an
// invitation, the account of a person an operator added to another workspace, nor the first start's owner; sign-in
// guesses are reserved before they are checked, however many arrive at once; a locked-out address does not lock
// the owner out elsewhere.
import { strict as assert } from 'node:assert';
import type { AuditEntryJson, InvitationWithLinkJson, WorkspaceJson } from '../support/api-json.js';
import { admin, createWorkspace } from '../support/admin.js';
import { firstRunLink, linkToken, OWNER_EMAIL, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { requestFrom } from '../support/from-address.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

interface MemberAdded { workspace_id: string; email: string; role: string; set_password_url: string | null; expires_at: string | null }

const ATTACKER_PASSWORD = 'chosen by the attacker 1';

describe(`accounts nobody else can claim, sign-in that cannot be raced (${testProfile()} profile)`, function () {
  this.timeout(180_000);
  let server: StartedServer;
  let acme: string;
  let aliceLink: string;
  let attacker: SessionClient;
  const invitationsFromEvil = new Map<string, string>();

  before(async () => {
    server = await startServer();
    acme = createWorkspace(server.dataDir, 'Acme').workspace.id;
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'Alice@Acme.test', '--role', 'owner']);
    assert.equal(added.email, 'alice@acme.test');
    assert.match(added.set_password_url ?? '', /\/set-password#token=[A-Za-z0-9_-]{43}$/, 'member add prints the set-password link at once');
    assert.ok(added.expires_at && Date.parse(added.expires_at) > Date.now());
    aliceLink = added.set_password_url!;

    // The attacker runs a workspace of their own, legitimately.
    const evil = createWorkspace(server.dataDir, 'Evil').workspace.id;
    const eve = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', evil, '--email', 'eve@evil.test', '--role', 'owner']);
    attacker = new SessionClient(server.httpUrl);
    expectOk(await attacker.request('POST', '/v1/password-links/accept', { body: { token: linkToken(eve.set_password_url!), password: 'eve password 12345' } }));
    expectOk(await attacker.signIn('eve@evil.test', 'eve password 12345', evil), 201);
  });

  after(async () => {
    await server?.stop();
  });

  it('refuses at the accept an invitation for a member of another workspace and for the first start\'s owner', async () => {
    for (const email of ['alice@acme.test', OWNER_EMAIL]) {
      const invitation = expectOk<InvitationWithLinkJson>(await attacker.request('POST', '/v1/invitations', { body: { email, role: 'owner' } }), 201);
      const token = linkToken(invitation.url);
      invitationsFromEvil.set(email, token);
      const stranger = new SessionClient(server.httpUrl);
      const preview = expectOk<Record<string, unknown>>(await stranger.request('POST', '/v1/invitations/lookup', { body: { token } }));
      assert.deepEqual(Object.keys(preview).sort(), ['email', 'expires_at', 'role', 'workspace_name'], 'the lookup says nothing about the account');
      const message = expectError(await stranger.request('POST', '/v1/invitations/accept', { body: { token, password: ATTACKER_PASSWORD } }), 409, 'account_unclaimed', email);
      assert.match(message, /password is not set yet; set it with the one-time link an operator gives you/);
      expectError(await stranger.signIn(email, ATTACKER_PASSWORD), 401, 'invalid_credentials', `${email} signs in with the attacker's password`);
      expectError(await stranger.signIn(email, ATTACKER_PASSWORD, acme), 401, 'invalid_credentials');
    }
    const audit = expectOk<AuditEntryJson[]>(await attacker.get('/v1/audit-log?limit=100'));
    const refusals = audit.filter((entry) => entry.action === 'invitation.accept_refused');
    assert.deepEqual(refusals.map((entry) => entry.target).sort(), ['alice@acme.test', OWNER_EMAIL].sort());
  });

  it('lets the people set their own passwords from their links and sign in to their workspaces', async () => {
    const alice = new SessionClient(server.httpUrl);
    expectOk(await alice.request('POST', '/v1/password-links/accept', { body: { token: linkToken(aliceLink), password: 'alice own password 1' } }));
    expectOk(await alice.signIn('alice@acme.test', 'alice own password 1', acme), 201);
    assert.equal(expectOk<WorkspaceJson>(await alice.get('/v1/workspace')).role, 'owner');

    const owner = new SessionClient(server.httpUrl);
    expectOk(await owner.request('POST', '/v1/password-links/accept', { body: { token: linkToken(firstRunLink(server)), password: 'owner own password 1' } }));
    expectOk(await owner.signIn(OWNER_EMAIL, 'owner own password 1'), 201);

    // Now that Alice has a password, the attacker's invitation needs it; Alice may still join with her own.
    const token = invitationsFromEvil.get('alice@acme.test')!;
    expectError(await new SessionClient(server.httpUrl).request('POST', '/v1/invitations/accept', { body: { token, password: ATTACKER_PASSWORD } }), 401, 'invalid_credentials');
    expectOk(await alice.request('POST', '/v1/invitations/accept', { body: { token, password: 'alice own password 1' } }));
    // member add of someone with a password prints no link: nothing to claim.
    const again = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', createWorkspace(server.dataDir, 'Acme two').workspace.id, '--email', 'alice@acme.test', '--role', 'member']);
    assert.equal(again.set_password_url, null);
  });

  it('lets an invitation set the password only of an email nobody has anywhere', async () => {
    const invitation = expectOk<InvitationWithLinkJson>(await attacker.request('POST', '/v1/invitations', { body: { email: 'fresh@nowhere.test', role: 'member' } }), 201);
    const newcomer = new SessionClient(server.httpUrl);
    expectOk(await newcomer.request('POST', '/v1/invitations/accept', { body: { token: linkToken(invitation.url), password: 'newcomer password 1' } }));
    expectOk(await newcomer.signIn('fresh@nowhere.test', 'newcomer password 1'), 201);
    const audit = expectOk<AuditEntryJson[]>(await attacker.get('/v1/audit-log?limit=100'));
    assert.ok(audit.some((entry) => entry.action === 'invitation.accepted' && entry.target === 'fresh@nowhere.test'));
  });

  it('revokes a person\'s older set-password link when a new one is issued', async () => {
    const older = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'bob@acme.test', '--role', 'member']);
    const newer = admin<{ set_password_url: string }>(server.dataDir, ['member', 'password', '--email', 'bob@acme.test']);
    const bob = new SessionClient(server.httpUrl);
    expectError(await bob.request('POST', '/v1/password-links/lookup', { body: { token: linkToken(older.set_password_url!) } }), 400, 'invalid_link');
    expectError(await bob.request('POST', '/v1/password-links/accept', { body: { token: linkToken(older.set_password_url!), password: 'bob password 12345' } }), 400, 'invalid_link');
    expectOk(await bob.request('POST', '/v1/password-links/accept', { body: { token: linkToken(newer.set_password_url), password: 'bob password 12345' } }));
    expectOk(await bob.signIn('bob@acme.test', 'bob password 12345', acme), 201);
  });

  it('checks at most 5 of 100 concurrent wrong passwords for one account; the owner still signs in from another address', async () => {
    const email = 'carol@acme.test';
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', email, '--role', 'owner']);
    const password = 'carol own password 1';
    expectOk(await new SessionClient(server.httpUrl).request('POST', '/v1/password-links/accept', { body: { token: linkToken(added.set_password_url!), password } }));

    const guesser = new SessionClient(server.httpUrl);
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => guesser.signIn(email, `wrong guess ${i}`)));
    const checked = burst.filter((response) => response.status === 401);
    const refused = burst.filter((response) => response.status === 429);
    for (const response of checked) expectError(response, 401, 'invalid_credentials');
    for (const response of refused) {
      expectError(response, 429, 'rate_limited');
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
    }
    assert.equal(checked.length + refused.length, 100, `statuses: ${burst.map((response) => response.status).join(',')}`);
    assert.ok(checked.length >= 1 && checked.length <= 5, `${checked.length} wrong passwords were checked`);

    // Further guesses from that address end at 5 checked in all, and then not even the right password gets in.
    let checkedInAll = checked.length;
    for (let i = 0; i < 10; i += 1) {
      const response = await guesser.signIn(email, `later guess ${i}`);
      if (response.status === 401) checkedInAll += 1;
      else expectError(response, 429, 'rate_limited');
    }
    assert.equal(checkedInAll, 5);
    const locked = expectError(await guesser.signIn(email, password), 429, 'rate_limited');
    assert.match(locked, /this account from this address/);

    // The owner, from another address, is not locked out.
    const elsewhere = await requestFrom('127.0.0.66', `${server.httpUrl}/v1/session`, 'POST', {
      body: { email, password, workspace_id: acme },
      headers: { origin: new URL(server.httpUrl).origin },
    });
    expectOk(elsewhere, 201);
  });
});
