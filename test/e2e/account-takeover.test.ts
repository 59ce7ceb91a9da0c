// End to end, both profiles: accounts belong to their people. An admin of one workspace cannot claim, through an
// invitation, the account of a person an operator added to another workspace, nor the first start's owner; nor
// pre-claim an unused email with an invitation of their own and be handed a role elsewhere by an operator; accepting
// answers alike whatever the email has. Sign-in guesses are reserved before they are checked, however many arrive at
// once; a locked-out address does not lock the owner out elsewhere.
import { strict as assert } from 'node:assert';
import type { ApiResponse } from '../support/api-client.js';
import type { AuditEntryJson, InvitationWithLinkJson, WorkspaceJson } from '../support/api-json.js';
import { admin, createWorkspace, runAdmin } from '../support/admin.js';
import { firstRunLink, linkToken, OWNER_EMAIL, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { requestFrom } from '../support/from-address.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

interface MemberAdded {
  workspace_id: string;
  email: string;
  role: string;
  account: {
    made_by: 'operator' | 'invitation';
    made_at: string;
    made_now: boolean;
    invited_to_workspace_id: string | null;
    invited_by: string | null;
    password_set_at: string | null;
    proved_at: string | null;
  };
  set_password_url: string | null;
  expires_at: string | null;
}

const ATTACKER_PASSWORD = 'chosen by the attacker 1';

describe(`accounts nobody else can claim, sign-in that cannot be raced (${testProfile()} profile)`, function () {
  this.timeout(180_000);
  let server: StartedServer;
  let acme: string;
  let evil: string;
  let aliceLink: string;
  let attacker: SessionClient;
  const invitationsFromEvil = new Map<string, string>();

  /** The attacker invites `email` to their own workspace and keeps the link. */
  const invite = async (email: string, role: 'owner' | 'admin' | 'member' = 'owner'): Promise<string> =>
    linkToken(expectOk<InvitationWithLinkJson>(await attacker.request('POST', '/v1/invitations', { body: { email, role } }), 201).url);
  const accept = (token: string, password: string): Promise<ApiResponse<unknown>> =>
    new SessionClient(server.httpUrl).request('POST', '/v1/invitations/accept', { body: { token, password } });

  before(async () => {
    server = await startServer();
    acme = createWorkspace(server.dataDir, 'Acme').workspace.id;
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'Alice@Acme.test', '--role', 'owner']);
    assert.equal(added.email, 'alice@acme.test');
    assert.equal(added.account.made_now, true);
    assert.match(added.set_password_url ?? '', /\/set-password#token=[A-Za-z0-9_-]{43}$/, 'member add prints the set-password link at once');
    assert.ok(added.expires_at && Date.parse(added.expires_at) > Date.now());
    aliceLink = added.set_password_url!;

    // The attacker runs a workspace of their own, legitimately.
    evil = createWorkspace(server.dataDir, 'Evil').workspace.id;
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
      const token = await invite(email);
      invitationsFromEvil.set(email, token);
      const stranger = new SessionClient(server.httpUrl);
      const preview = expectOk<Record<string, unknown>>(await stranger.request('POST', '/v1/invitations/lookup', { body: { token } }));
      assert.deepEqual(Object.keys(preview).sort(), ['email', 'expires_at', 'role', 'workspace_name'], 'the lookup says nothing about the account');
      expectError(await accept(token, ATTACKER_PASSWORD), 401, 'invalid_credentials');
      expectError(await stranger.signIn(email, ATTACKER_PASSWORD), 401, 'invalid_credentials', `${email} signs in with the attacker's password`);
      expectError(await stranger.signIn(email, ATTACKER_PASSWORD, acme), 401, 'invalid_credentials');
    }
    const audit = expectOk<AuditEntryJson[]>(await attacker.get('/v1/audit-log?limit=100'));
    const refusals = audit.filter((entry) => entry.action === 'invitation.accept_refused');
    assert.deepEqual(refusals.map((entry) => entry.target).sort(), ['alice@acme.test', OWNER_EMAIL].sort());
  });

  it('answers an accept alike whether the email has no account, one with a password, or one whose password is not set', async () => {
    // Accounts of each kind: one with a password (Bob), one an operator added without one yet (Carla), and none.
    const bob = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'bob@acme.test', '--role', 'member']);
    expectOk(await new SessionClient(server.httpUrl).request('POST', '/v1/password-links/accept', { body: { token: linkToken(bob.set_password_url!), password: 'bob password 12345' } }));
    admin(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'carla@acme.test', '--role', 'member']);
    const tokens = { password: await invite('bob@acme.test'), unclaimed: await invite('carla@acme.test'), none: await invite('nobody-yet@acme.test') };

    // A password the new-password rules refuse: the same 400 for all three, before anything about the account.
    const short = await Promise.all(Object.values(tokens).map((token) => accept(token, 'short')));
    for (const response of short) expectError(response, 400, 'invalid_request');
    assert.deepEqual(short.map((response) => response.json), [short[0]!.json, short[0]!.json, short[0]!.json]);
    const mentioningEmail = await Promise.all(Object.entries(tokens).map(([kind, token]) => accept(token, kind === 'password' ? 'bob@acme.test' : kind === 'unclaimed' ? 'carla@acme.test' : 'nobody-yet@acme.test')));
    for (const response of mentioningEmail) expectError(response, 400, 'invalid_request');
    assert.deepEqual(new Set(mentioningEmail.map((response) => JSON.stringify(response.json))).size, 1);

    // A password that would do for a new account: a password and none yet answer the very same 401.
    const [withPassword, unclaimed] = [await accept(tokens.password, ATTACKER_PASSWORD), await accept(tokens.unclaimed, ATTACKER_PASSWORD)];
    expectError(withPassword, 401, 'invalid_credentials');
    assert.deepEqual(unclaimed.json, withPassword.json);
    assert.equal(unclaimed.status, withPassword.status);
    const reasons = expectOk<AuditEntryJson[]>(await attacker.get('/v1/audit-log?limit=100'))
      .filter((entry) => entry.action === 'invitation.accept_refused' && ['bob@acme.test', 'carla@acme.test'].includes(entry.target ?? ''))
      .map((entry) => entry.details?.reason);
    assert.deepEqual(reasons, ['invalid_credentials', 'invalid_credentials'], 'the inviters\' audit log tells them apart no better');
    // Bob's password still works and Carla's link still sets hers: the accepts changed nothing.
    expectOk(await new SessionClient(server.httpUrl).signIn('bob@acme.test', 'bob password 12345', acme), 201);
  });

  it('gives an account an invitation made for an unused email no role through an operator\'s member add elsewhere', async () => {
    // The pre-claim: the attacker invites an email nobody uses yet, opens their own link and accepts it.
    expectOk(await accept(await invite('victim@corp.test'), ATTACKER_PASSWORD));
    const squatter = new SessionClient(server.httpUrl);
    expectOk(await squatter.signIn('victim@corp.test', ATTACKER_PASSWORD), 201);
    assert.deepEqual(squatter.me!.workspaces.map((workspace) => workspace.id), [evil], 'the account belongs to the attacker\'s workspace alone');

    // Later an operator adds that email to Acme as an owner: refused, saying how and when the account was made.
    const refused = runAdmin(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'victim@corp.test', '--role', 'owner']);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`victim@corp\\.test has an account made \\S+ by accepting an invitation to workspace ${evil} \\(Evil\\) from eve@evil\\.test`));
    assert.match(refused.stderr, /member password --email victim@corp\.test/);
    assert.match(refused.stderr, /--trust-account/);
    expectError(await new SessionClient(server.httpUrl).signIn('victim@corp.test', ATTACKER_PASSWORD, acme), 403, 'no_workspace');

    // The way in for the email's real owner: an operator's set-password link, which ends the attacker's sessions.
    const link = admin<{ set_password_url: string }>(server.dataDir, ['member', 'password', '--email', 'victim@corp.test']);
    const victim = new SessionClient(server.httpUrl);
    expectOk(await victim.request('POST', '/v1/password-links/accept', { body: { token: linkToken(link.set_password_url), password: 'the victim chose this' } }));
    expectError(await squatter.get('/v1/me'), 401, 'unauthorized');
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'victim@corp.test', '--role', 'owner']);
    assert.equal(added.account.made_by, 'invitation');
    assert.equal(added.account.invited_to_workspace_id, evil);
    assert.ok(added.account.proved_at, 'proved by the operator\'s link');
    assert.equal(added.set_password_url, null);
    expectOk(await victim.signIn('victim@corp.test', 'the victim chose this', acme), 201);
    assert.equal(expectOk<WorkspaceJson>(await victim.get('/v1/workspace')).role, 'owner');
    expectError(await new SessionClient(server.httpUrl).signIn('victim@corp.test', ATTACKER_PASSWORD), 401, 'invalid_credentials');
  });

  it('hands such an account a role only when the operator says they trust it, and records that', async () => {
    expectOk(await accept(await invite('known@corp.test', 'member'), 'known person password'));
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'known@corp.test', '--role', 'member', '--trust-account']);
    assert.equal(added.account.made_by, 'invitation');
    assert.equal(added.account.invited_by, 'eve@evil.test');
    assert.equal(added.account.proved_at, null);
    const text = runAdmin(server.dataDir, ['member', 'add', '--workspace', createWorkspace(server.dataDir, 'Acme three').workspace.id, '--email', 'known@corp.test', '--role', 'member', '--trust-account']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /has an account made \S+ by accepting an invitation to workspace \S+ \(Evil\) from eve@evil\.test; its password was chosen \S+ by whoever held the account/);
    const known = new SessionClient(server.httpUrl);
    expectOk(await known.signIn('known@corp.test', 'known person password', acme), 201);
  });

  it('lets the people set their own passwords from their links and sign in to their workspaces', async () => {
    const alice = new SessionClient(server.httpUrl);
    expectOk(await alice.request('POST', '/v1/password-links/accept', { body: { token: linkToken(aliceLink), password: 'alice own password 1' } }));
    expectOk(await alice.signIn('alice@acme.test', 'alice own password 1', acme), 201);
    assert.equal(expectOk<WorkspaceJson>(await alice.get('/v1/workspace')).role, 'owner');
    const memberAdded = expectOk<AuditEntryJson[]>(await alice.get('/v1/audit-log?limit=100')).filter((entry) => entry.action === 'member.added');
    assert.ok(memberAdded.some((entry) => entry.actor === 'operator' && entry.target === 'known@corp.test' && entry.details?.account === 'made_by_another_workspace_invitation_trusted_by_operator'));

    const owner = new SessionClient(server.httpUrl);
    expectOk(await owner.request('POST', '/v1/password-links/accept', { body: { token: linkToken(firstRunLink(server)), password: 'owner own password 1' } }));
    expectOk(await owner.signIn(OWNER_EMAIL, 'owner own password 1'), 201);

    // Now that Alice has a password, the attacker's invitation needs it; Alice may still join with her own.
    const token = invitationsFromEvil.get('alice@acme.test')!;
    expectError(await accept(token, ATTACKER_PASSWORD), 401, 'invalid_credentials');
    expectOk(await alice.request('POST', '/v1/invitations/accept', { body: { token, password: 'alice own password 1' } }));
    // member add of someone with a password prints no link, and says how the account was made.
    const again = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', createWorkspace(server.dataDir, 'Acme two').workspace.id, '--email', 'alice@acme.test', '--role', 'member']);
    assert.equal(again.set_password_url, null);
    assert.equal(again.account.made_by, 'operator');
    assert.ok(again.account.proved_at);
  });

  it('lets an invitation set the password only of an email nobody has anywhere', async () => {
    const newcomer = new SessionClient(server.httpUrl);
    expectOk(await newcomer.request('POST', '/v1/invitations/accept', { body: { token: await invite('fresh@nowhere.test', 'member'), password: 'newcomer password 1' } }));
    expectOk(await newcomer.signIn('fresh@nowhere.test', 'newcomer password 1'), 201);
    const audit = expectOk<AuditEntryJson[]>(await attacker.get('/v1/audit-log?limit=100'));
    assert.ok(audit.some((entry) => entry.action === 'invitation.accepted' && entry.target === 'fresh@nowhere.test'));
  });

  it('revokes a person\'s older set-password link when a new one is issued', async () => {
    const older = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', 'dora@acme.test', '--role', 'member']);
    const newer = admin<{ set_password_url: string }>(server.dataDir, ['member', 'password', '--email', 'dora@acme.test']);
    const dora = new SessionClient(server.httpUrl);
    expectError(await dora.request('POST', '/v1/password-links/lookup', { body: { token: linkToken(older.set_password_url!) } }), 400, 'invalid_link');
    expectError(await dora.request('POST', '/v1/password-links/accept', { body: { token: linkToken(older.set_password_url!), password: 'dora password 12345' } }), 400, 'invalid_link');
    expectOk(await dora.request('POST', '/v1/password-links/accept', { body: { token: linkToken(newer.set_password_url), password: 'dora password 12345' } }));
    expectOk(await dora.signIn('dora@acme.test', 'dora password 12345', acme), 201);
  });

  it('checks at most 5 of 100 concurrent wrong passwords for one account; the owner still signs in from another address', async () => {
    const email = 'erin@acme.test';
    const added = admin<MemberAdded>(server.dataDir, ['member', 'add', '--workspace', acme, '--email', email, '--role', 'owner']);
    const password = 'erin own password 1';
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
