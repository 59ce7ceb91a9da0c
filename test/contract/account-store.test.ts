// AccountStore contract, run against every backend: people, memberships, sessions, invitations, password links, audit.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../src/errors.js';
import type { AuditEntry, Invitation, MemberRole, PasswordLink, Person, SessionRecord } from '../../src/domain/types.js';
import type { AccountStore, MetadataStore } from '../../src/storage/ports.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { aWorkspace } from './fixtures.js';
import { pollUntil } from '../support/poll.js';

const HOUR = 3_600_000;
const unique = (kind: string): string => `${kind}_${randomBytes(8).toString('hex')}`;
const aTokenHash = (): string => randomBytes(32).toString('hex');
const anEmail = (): string => `${unique('person')}@example.test`;

const aPerson = (overrides: Partial<Person> = {}): Person => ({
  id: unique('psn'), email: anEmail(), passwordHash: 'scrypt$32768$8$1$c2FsdA$aGFzaA', createdAt: new Date(1_000_000), passwordChangedAt: null,
  origin: { kind: 'operator' }, provedAt: null, ...overrides,
});

const aSession = (personId: string, workspaceId: string, overrides: Partial<SessionRecord> = {}): SessionRecord => {
  const now = Date.now();
  return {
    id: unique('ses'), tokenHash: aTokenHash(), personId, workspaceId, csrfToken: randomBytes(32).toString('base64url'),
    createdAt: new Date(now), lastSeenAt: new Date(now), expiresAt: new Date(now + 168 * HOUR), idleExpiresAt: new Date(now + 12 * HOUR),
    userAgent: 'Mozilla/5.0 (contract)', ip: '203.0.113.7', ...overrides,
  };
};

const anInvitation = (workspaceId: string, overrides: Partial<Invitation> = {}): Invitation => {
  const now = Date.now();
  return {
    id: unique('inv'), workspaceId, email: anEmail(), role: 'member', tokenHash: aTokenHash(), invitedBy: 'owner@example.test',
    createdAt: new Date(now), expiresAt: new Date(now + 72 * HOUR), acceptedAt: null, revokedAt: null, ...overrides,
  };
};

const aPasswordLink = (overrides: Partial<PasswordLink> = {}): PasswordLink => {
  const now = Date.now();
  return { tokenHash: aTokenHash(), email: anEmail(), createdAt: new Date(now), expiresAt: new Date(now + 24 * HOUR), usedAt: null, ...overrides };
};

const hasCode = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

for (const factory of backendFactories) {
  describe(`AccountStore contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let accounts: AccountStore;
    let metadata: MetadataStore;
    before(async () => {
      under = await factory.open();
      accounts = under.backend.accounts;
      metadata = under.backend.metadata;
    });
    after(() => under.dispose());

    async function aWorkspaceWith(members: Record<string, MemberRole> = {}): Promise<string> {
      const workspace = aWorkspace();
      await metadata.createWorkspace(workspace);
      let at = 1_000;
      for (const [email, role] of Object.entries(members)) {
        assert.equal(await metadata.addMember({ workspaceId: workspace.id, email, role, createdAt: new Date(at++) }, null), 'added');
      }
      return workspace.id;
    }

    describe('people', () => {
      it('stores a person once per email and finds them by id and email', async () => {
        const person = aPerson({ passwordHash: null });
        assert.equal(await accounts.createPerson(person), 'created');
        assert.deepEqual(await accounts.getPerson(person.id), person);
        assert.deepEqual(await accounts.findPersonByEmail(person.email), person);
        assert.equal(await accounts.createPerson(aPerson({ email: person.email })), 'email_taken');
        assert.equal(await accounts.getPerson('psn_missing'), null);
        assert.equal(await accounts.findPersonByEmail('nobody@example.test'), null);
        await assert.rejects(accounts.createPerson(aPerson({ id: person.id })), hasCode('already_exists'), 'a taken id is no outcome but an error');
      });

      it('keeps which invitation made an account', async () => {
        const person = aPerson({ origin: { kind: 'invitation', workspaceId: 'ws_elsewhere', invitationId: 'inv_1', invitedBy: 'admin@elsewhere.test' } });
        await accounts.createPerson(person);
        assert.deepEqual(await accounts.findPersonByEmail(person.email), person);
      });

      it('sets a password and when it changed', async () => {
        const person = aPerson({ passwordHash: null });
        await accounts.createPerson(person);
        const at = new Date(2_000_000);
        assert.equal(await accounts.setPersonPassword(person.id, 'scrypt$new', at, false), true);
        assert.deepEqual(await accounts.getPerson(person.id), { ...person, passwordHash: 'scrypt$new', passwordChangedAt: at });
        const proved = new Date(3_000_000);
        assert.equal(await accounts.setPersonPassword(person.id, 'scrypt$proved', proved, true), true);
        const later = new Date(4_000_000);
        assert.equal(await accounts.setPersonPassword(person.id, 'scrypt$later', later, false), true);
        assert.deepEqual(await accounts.getPerson(person.id), { ...person, passwordHash: 'scrypt$later', passwordChangedAt: later, provedAt: proved }, 'proved stays');
        assert.equal(await accounts.setPersonPassword('psn_missing', 'scrypt$new', at, false), false);
        assert.equal(await accounts.getPerson('psn_missing'), null, 'setting a password creates nobody');
      });
    });

    describe('memberships', () => {
      it('lists the members MetadataStore.addMember added, oldest first, and finds one', async () => {
        const workspaceId = await aWorkspaceWith({ 'b@x.test': 'owner', 'a@x.test': 'member' });
        assert.deepEqual(await accounts.listMembers(workspaceId), [
          { workspaceId, email: 'b@x.test', role: 'owner', createdAt: new Date(1_000) },
          { workspaceId, email: 'a@x.test', role: 'member', createdAt: new Date(1_001) },
        ]);
        assert.deepEqual(await accounts.getMember(workspaceId, 'a@x.test'), { workspaceId, email: 'a@x.test', role: 'member', createdAt: new Date(1_001) });
        assert.equal(await accounts.getMember(workspaceId, 'c@x.test'), null);
        assert.deepEqual(await accounts.listMembers('ws_missing'), []);
      });

      it('lists every membership of an email, oldest first', async () => {
        const email = anEmail();
        const [later, earlier, other] = [await aWorkspaceWith(), await aWorkspaceWith(), await aWorkspaceWith()];
        await metadata.addMember({ workspaceId: later, email, role: 'admin', createdAt: new Date(5_000) }, null);
        await metadata.addMember({ workspaceId: earlier, email, role: 'owner', createdAt: new Date(4_000) }, null);
        await metadata.addMember({ workspaceId: other, email: anEmail(), role: 'owner', createdAt: new Date(4_000) }, null);
        assert.deepEqual(await accounts.listMembershipsOf(email), [
          { workspaceId: earlier, email, role: 'owner', createdAt: new Date(4_000) },
          { workspaceId: later, email, role: 'admin', createdAt: new Date(5_000) },
        ]);
        assert.equal(await accounts.removeMember(later, email), 'changed');
        assert.deepEqual((await accounts.listMembershipsOf(email)).map((m) => m.workspaceId), [earlier], 'a removed membership is gone from the list');
        assert.deepEqual(await accounts.listMembershipsOf('nobody@example.test'), []);
      });

      it('changes roles, keeping when the membership began', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner', 'm@x.test': 'member' });
        assert.equal(await accounts.setMemberRole(workspaceId, 'm@x.test', 'admin'), 'changed');
        assert.deepEqual(await accounts.getMember(workspaceId, 'm@x.test'), { workspaceId, email: 'm@x.test', role: 'admin', createdAt: new Date(1_001) });
        assert.equal(await accounts.setMemberRole(workspaceId, 'm@x.test', 'owner'), 'changed');
        assert.equal(await accounts.setMemberRole(workspaceId, 'owner@x.test', 'member'), 'changed', 'with two owners one may step down');
        assert.equal(await accounts.setMemberRole(workspaceId, 'nobody@x.test', 'admin'), 'not_found');
        assert.equal(await accounts.getMember(workspaceId, 'nobody@x.test'), null, 'changing no member adds none');
        assert.equal(await metadata.countMembers(workspaceId), 2);
      });

      it('never demotes or removes the last owner', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner', 'admin@x.test': 'admin' });
        assert.equal(await accounts.setMemberRole(workspaceId, 'owner@x.test', 'admin'), 'last_owner');
        assert.equal(await accounts.removeMember(workspaceId, 'owner@x.test'), 'last_owner');
        assert.equal((await accounts.getMember(workspaceId, 'owner@x.test'))!.role, 'owner', 'nothing changed');
        assert.equal(await accounts.setMemberRole(workspaceId, 'owner@x.test', 'owner'), 'changed', 'keeping the owner an owner is fine');
        assert.equal(await accounts.removeMember(workspaceId, 'admin@x.test'), 'changed');
        assert.equal(await accounts.removeMember(workspaceId, 'admin@x.test'), 'not_found');
        assert.equal(await metadata.countMembers(workspaceId), 1);
      });

      it('keeps one owner when two owners step down or leave at the same moment', async () => {
        const demoted = await aWorkspaceWith({ 'one@x.test': 'owner', 'two@x.test': 'owner' });
        const demotions = await Promise.all(['one@x.test', 'two@x.test'].map((email) => accounts.setMemberRole(demoted, email, 'member')));
        assert.deepEqual(demotions.sort(), ['changed', 'last_owner']);
        assert.equal((await accounts.listMembers(demoted)).filter((m) => m.role === 'owner').length, 1);

        const left = await aWorkspaceWith({ 'one@x.test': 'owner', 'two@x.test': 'owner' });
        const removals = await Promise.all(['one@x.test', 'two@x.test'].map((email) => accounts.removeMember(left, email)));
        assert.deepEqual(removals.sort(), ['changed', 'last_owner']);
        assert.equal((await accounts.listMembers(left)).length, 1);
      });

      it('lets a member removed by the dashboard be added again by the CLI', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner', 'm@x.test': 'member' });
        assert.equal(await accounts.removeMember(workspaceId, 'm@x.test'), 'changed');
        assert.equal(await metadata.addMember({ workspaceId, email: 'm@x.test', role: 'admin', createdAt: new Date(9_000) }, 2), 'added');
        assert.deepEqual((await accounts.listMembershipsOf('m@x.test')).find((m) => m.workspaceId === workspaceId)!.role, 'admin');
      });
    });

    describe('sessions', () => {
      it('stores a session and finds it by token hash', async () => {
        const session = aSession(unique('psn'), 'ws_a');
        await accounts.createSession(session);
        assert.deepEqual(await accounts.findSession(session.tokenHash), session);
        assert.equal(await accounts.findSession(aTokenHash()), null);
        const anonymous = aSession(unique('psn'), 'ws_a', { userAgent: null, ip: null });
        await accounts.createSession(anonymous);
        assert.deepEqual(await accounts.findSession(anonymous.tokenHash), anonymous);
      });

      it('moves lastSeenAt and the idle end forward, never past the absolute end', async () => {
        const now = Date.now();
        const session = aSession(unique('psn'), 'ws_a', { expiresAt: new Date(now + 2 * HOUR), idleExpiresAt: new Date(now + HOUR) });
        await accounts.createSession(session);
        await accounts.touchSession(session.tokenHash, new Date(now + 60_000), new Date(now + 90 * 60_000));
        let found = await accounts.findSession(session.tokenHash);
        assert.deepEqual([found!.lastSeenAt, found!.idleExpiresAt], [new Date(now + 60_000), new Date(now + 90 * 60_000)]);
        await accounts.touchSession(session.tokenHash, new Date(now + 120_000), new Date(now + 5 * HOUR));
        found = await accounts.findSession(session.tokenHash);
        assert.deepEqual(found!.idleExpiresAt, session.expiresAt, 'clamped to the absolute end');
        await accounts.touchSession(session.tokenHash, new Date(now + 30_000), new Date(now + 30 * 60_000));
        found = await accounts.findSession(session.tokenHash);
        assert.deepEqual([found!.lastSeenAt, found!.idleExpiresAt], [new Date(now + 120_000), session.expiresAt], 'a touch that lands late moves nothing back');
        assert.deepEqual({ ...found, lastSeenAt: session.lastSeenAt, idleExpiresAt: session.idleExpiresAt }, session, 'nothing else changes');
        await accounts.touchSession(aTokenHash(), new Date(now), new Date(now + HOUR));
      });

      it('points a session at another workspace', async () => {
        const session = aSession(unique('psn'), 'ws_a');
        await accounts.createSession(session);
        assert.equal(await accounts.setSessionWorkspace(session.tokenHash, 'ws_b'), true);
        assert.equal((await accounts.findSession(session.tokenHash))!.workspaceId, 'ws_b');
        assert.equal(await accounts.setSessionWorkspace(aTokenHash(), 'ws_b'), false);
      });

      it('lists a person\'s sessions newest first and ends one by its public id', async () => {
        const personId = unique('psn');
        const now = Date.now();
        const [first, second, third] = [0, 1, 2].map((i) => aSession(personId, 'ws_a', { createdAt: new Date(now + i * 1000) }));
        const stranger = aSession(unique('psn'), 'ws_a');
        for (const session of [second!, first!, third!, stranger]) await accounts.createSession(session);
        assert.deepEqual(await accounts.listSessions(personId), [third, second, first]);
        assert.equal(await accounts.deleteSession(personId, stranger.id), false, 'another person\'s session is not theirs to end');
        assert.ok(await accounts.findSession(stranger.tokenHash));
        assert.equal(await accounts.deleteSession(personId, second!.id), true);
        assert.equal(await accounts.deleteSession(personId, second!.id), false);
        assert.equal(await accounts.findSession(second!.tokenHash), null);
        assert.deepEqual((await accounts.listSessions(personId)).map((s) => s.id), [third!.id, first!.id]);
        assert.deepEqual(await accounts.listSessions(unique('psn')), []);
      });

      it('ends a person\'s sessions: all, all but one, or those of one workspace', async () => {
        const personId = unique('psn');
        const current = aSession(personId, 'ws_a');
        const sameWorkspace = aSession(personId, 'ws_a');
        const otherWorkspace = aSession(personId, 'ws_b');
        const stranger = aSession(unique('psn'), 'ws_a');
        for (const session of [current, sameWorkspace, otherWorkspace, stranger]) await accounts.createSession(session);

        assert.equal(await accounts.deleteSessions(personId, { workspaceId: 'ws_a', exceptId: current.id }), 1);
        assert.deepEqual((await accounts.listSessions(personId)).map((s) => s.id).sort(), [current.id, otherWorkspace.id].sort());
        assert.equal(await accounts.deleteSessions(personId, { workspaceId: 'ws_c' }), 0);
        assert.equal(await accounts.deleteSessions(personId, { exceptId: current.id }), 1);
        assert.deepEqual((await accounts.listSessions(personId)).map((s) => s.id), [current.id]);
        assert.equal(await accounts.deleteSessions(personId), 1);
        assert.equal(await accounts.findSession(current.tokenHash), null);
        assert.deepEqual(await accounts.listSessions(personId), []);
        assert.equal(await accounts.deleteSessions(personId), 0);
        assert.ok(await accounts.findSession(stranger.tokenHash), 'other people keep theirs');
      });

      it('forgets sessions past their idle or absolute end', async () => {
        const personId = unique('psn');
        const now = Date.now();
        const idle = aSession(personId, 'ws_a', { idleExpiresAt: new Date(now - 1000) });
        const over = aSession(personId, 'ws_a', { createdAt: new Date(now - 2 * HOUR), expiresAt: new Date(now - 1000), idleExpiresAt: new Date(now + HOUR) });
        const live = aSession(personId, 'ws_a');
        for (const session of [idle, over, live]) await accounts.createSession(session);
        assert.equal(await accounts.findSession(idle.tokenHash), null);
        assert.equal(await accounts.findSession(over.tokenHash), null);
        assert.deepEqual((await accounts.listSessions(personId)).map((s) => s.id), [live.id]);
        await accounts.touchSession(idle.tokenHash, new Date(now), new Date(now + HOUR));
        assert.equal(await accounts.findSession(idle.tokenHash), null, 'touching an ended session does not bring it back');
        assert.equal(await accounts.setSessionWorkspace(over.tokenHash, 'ws_b'), false);
        assert.equal(await accounts.deleteSession(personId, idle.id), false);
        assert.equal(await accounts.deleteSessions(personId), 1, 'only live sessions are counted');
      });

      it('forgets a session once its idle end passes', async () => {
        const session = aSession(unique('psn'), 'ws_a', { idleExpiresAt: new Date(Date.now() + 300) });
        await accounts.createSession(session);
        assert.ok(await accounts.findSession(session.tokenHash));
        await pollUntil(async () => (await accounts.findSession(session.tokenHash)) === null, 5000, 'the idle session to be forgotten');
        assert.deepEqual(await accounts.listSessions(session.personId), []);
      });
    });

    describe('invitations', () => {
      it('stores invitations, lists those since a time newest first and finds one by token hash', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const now = Date.now();
        const old = anInvitation(workspaceId, { createdAt: new Date(now - 10 * HOUR), expiresAt: new Date(now - HOUR) });
        const recent = anInvitation(workspaceId, { createdAt: new Date(now - HOUR), role: 'admin' });
        const newest = anInvitation(workspaceId, { createdAt: new Date(now) });
        for (const invitation of [recent, old, newest]) assert.equal(await accounts.createInvitation(invitation, null), 'created');
        assert.deepEqual(await accounts.listInvitations(workspaceId, new Date(now - 2 * HOUR)), [newest, recent]);
        assert.deepEqual(await accounts.listInvitations(workspaceId, new Date(0)), [newest, recent, old]);
        assert.deepEqual(await accounts.findInvitationByTokenHash(recent.tokenHash), recent);
        assert.equal(await accounts.findInvitationByTokenHash(aTokenHash()), null);
        assert.deepEqual(await accounts.listInvitations(await aWorkspaceWith(), new Date(0)), []);
        await assert.rejects(accounts.createInvitation(anInvitation(workspaceId, { id: newest.id }), null), hasCode('already_exists'));
      });

      it('refuses to invite a member', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        assert.equal(await accounts.createInvitation(anInvitation(workspaceId, { email: 'owner@x.test' }), null), 'already_member');
        assert.deepEqual(await accounts.listInvitations(workspaceId, new Date(0)), []);
      });

      it('counts members and other pending, unexpired invitations against the limit', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const now = Date.now();
        const expired = anInvitation(workspaceId, { createdAt: new Date(now - 100 * HOUR), expiresAt: new Date(now - HOUR) });
        assert.equal(await accounts.createInvitation(expired, null), 'created');
        const pending = anInvitation(workspaceId);
        assert.equal(await accounts.createInvitation(pending, 3), 'created', 'the expired one holds no seat');
        assert.equal(await accounts.createInvitation(anInvitation(workspaceId), 2), 'limit_reached', 'owner + pending + this one would be 3');
        const third = anInvitation(workspaceId);
        assert.equal(await accounts.createInvitation(third, 3), 'created');
        assert.equal(await accounts.revokeInvitation(workspaceId, third.id, new Date()), true);
        assert.equal(await accounts.createInvitation(anInvitation(workspaceId), 3), 'created', 'a revoked invitation holds no seat');
        assert.equal(await accounts.createInvitation(anInvitation(workspaceId), 3), 'limit_reached');
      });

      it('replaces an older pending invitation of the same email, which then holds no seat', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const first = anInvitation(workspaceId, { createdAt: new Date(Date.now() - 60_000) });
        assert.equal(await accounts.createInvitation(first, 2), 'created');
        const again = anInvitation(workspaceId, { email: first.email, role: 'admin' });
        assert.equal(await accounts.createInvitation(again, 2), 'created', 'the older one is not counted against the limit');
        assert.deepEqual(await accounts.findInvitationByTokenHash(first.tokenHash), { ...first, revokedAt: again.createdAt });
        assert.deepEqual(await accounts.findInvitationByTokenHash(again.tokenHash), again);
        assert.deepEqual((await accounts.acceptInvitation(first.tokenHash, new Date(), 2, null)).outcome, 'invalid');
      });

      it('revokes a pending invitation of the workspace only', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitation = anInvitation(workspaceId);
        await accounts.createInvitation(invitation, null);
        assert.equal(await accounts.revokeInvitation('ws_other', invitation.id, new Date()), false);
        const at = new Date(Date.now() + 1000);
        assert.equal(await accounts.revokeInvitation(workspaceId, invitation.id, at), true);
        assert.equal(await accounts.revokeInvitation(workspaceId, invitation.id, new Date()), false);
        assert.deepEqual(await accounts.findInvitationByTokenHash(invitation.tokenHash), { ...invitation, revokedAt: at });
        assert.equal(await accounts.revokeInvitation(workspaceId, 'inv_missing', new Date()), false);
        const expired = anInvitation(workspaceId, { createdAt: new Date(Date.now() - 2 * HOUR), expiresAt: new Date(Date.now() - HOUR) });
        await accounts.createInvitation(expired, null);
        assert.equal(await accounts.revokeInvitation(workspaceId, expired.id, new Date()), false, 'an expired invitation is no longer pending');
      });

      it('accepts once: adds the member with the invitation\'s role and marks it accepted', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitation = anInvitation(workspaceId, { role: 'admin' });
        await accounts.createInvitation(invitation, null);
        const at = new Date(Date.now() + 1000);
        assert.deepEqual(await accounts.acceptInvitation(invitation.tokenHash, at, 5, null), { outcome: 'accepted', invitation: { ...invitation, acceptedAt: at } });
        assert.deepEqual(await accounts.getMember(workspaceId, invitation.email), { workspaceId, email: invitation.email, role: 'admin', createdAt: at });
        assert.deepEqual((await accounts.listMembershipsOf(invitation.email)).map((m) => m.workspaceId), [workspaceId]);
        assert.equal(await metadata.countMembers(workspaceId), 2);
        assert.deepEqual(await accounts.acceptInvitation(invitation.tokenHash, new Date(), 5, null), { outcome: 'invalid' });
        assert.equal(await accounts.revokeInvitation(workspaceId, invitation.id, new Date()), false, 'an accepted invitation cannot be revoked');
      });

      it('lets exactly one of two concurrent accepts win', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitation = anInvitation(workspaceId);
        await accounts.createInvitation(invitation, null);
        const outcomes = await Promise.all([0, 1].map(() => accounts.acceptInvitation(invitation.tokenHash, new Date(), null, null)));
        assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['accepted', 'invalid']);
        assert.equal(await metadata.countMembers(workspaceId), 2);
      });

      it('never lets concurrent accepts pass the member limit', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitations = [anInvitation(workspaceId), anInvitation(workspaceId), anInvitation(workspaceId)];
        for (const invitation of invitations) await accounts.createInvitation(invitation, null);
        const outcomes = await Promise.all(invitations.map((i) => accounts.acceptInvitation(i.tokenHash, new Date(), 2, null)));
        assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['accepted', 'limit_reached', 'limit_reached']);
        assert.equal(await metadata.countMembers(workspaceId), 2);
      });

      it('keeps an invitation pending at the limit, so it can be accepted once a seat is free', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner', 'm@x.test': 'member' });
        const invitation = anInvitation(workspaceId);
        await accounts.createInvitation(invitation, null);
        assert.deepEqual(await accounts.acceptInvitation(invitation.tokenHash, new Date(), 2, null), { outcome: 'limit_reached', invitation });
        assert.equal(await accounts.getMember(workspaceId, invitation.email), null);
        assert.equal(await accounts.removeMember(workspaceId, 'm@x.test'), 'changed');
        assert.equal((await accounts.acceptInvitation(invitation.tokenHash, new Date(), 2, null)).outcome, 'accepted');
      });

      it('uses the invitation up when its email became a member meanwhile', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitation = anInvitation(workspaceId, { role: 'admin' });
        await accounts.createInvitation(invitation, null);
        await metadata.addMember({ workspaceId, email: invitation.email, role: 'member', createdAt: new Date(7_000) }, null);
        const at = new Date();
        assert.deepEqual(await accounts.acceptInvitation(invitation.tokenHash, at, 1, null), { outcome: 'already_member', invitation: { ...invitation, acceptedAt: at } });
        assert.equal((await accounts.getMember(workspaceId, invitation.email))!.role, 'member', 'the existing membership stays as it was');
        assert.deepEqual(await accounts.acceptInvitation(invitation.tokenHash, new Date(), 1, null), { outcome: 'invalid' });
      });

      it('makes the new person with the membership in one step, or neither when the email has a person', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        const invitation = anInvitation(workspaceId);
        await accounts.createInvitation(invitation, null);
        const at = new Date();
        const origin = { kind: 'invitation' as const, workspaceId, invitationId: invitation.id, invitedBy: invitation.invitedBy };
        const person = aPerson({ email: invitation.email, createdAt: at, passwordChangedAt: at, origin });
        assert.equal((await accounts.acceptInvitation(invitation.tokenHash, at, null, person)).outcome, 'accepted');
        assert.deepEqual(await accounts.findPersonByEmail(invitation.email), person);
        assert.equal((await accounts.getMember(workspaceId, invitation.email))?.role, invitation.role);

        const taken = anInvitation(workspaceId);
        await accounts.createInvitation(taken, null);
        await accounts.createPerson(aPerson({ email: taken.email }));
        assert.deepEqual(await accounts.acceptInvitation(taken.tokenHash, new Date(), null, aPerson({ email: taken.email, origin })), { outcome: 'email_taken' });
        assert.equal(await accounts.getMember(workspaceId, taken.email), null);
        assert.equal((await accounts.findInvitationByTokenHash(taken.tokenHash))!.acceptedAt, null, 'still pending');
        assert.equal((await accounts.findPersonByEmail(taken.email))!.origin.kind, 'operator', 'the person who was there stays');

        const full = anInvitation(workspaceId);
        await accounts.createInvitation(full, null);
        const refused = await accounts.acceptInvitation(full.tokenHash, new Date(), 2, aPerson({ email: full.email, origin }));
        assert.equal(refused.outcome, 'limit_reached');
        assert.equal(await accounts.findPersonByEmail(full.email), null, 'no account without its membership');
      });

      it('refuses unknown, revoked and expired invitations', async () => {
        const workspaceId = await aWorkspaceWith({ 'owner@x.test': 'owner' });
        assert.deepEqual(await accounts.acceptInvitation(aTokenHash(), new Date(), null, null), { outcome: 'invalid' });
        const revoked = anInvitation(workspaceId);
        await accounts.createInvitation(revoked, null);
        await accounts.revokeInvitation(workspaceId, revoked.id, new Date());
        assert.deepEqual(await accounts.acceptInvitation(revoked.tokenHash, new Date(), null, null), { outcome: 'invalid' });
        const expiring = anInvitation(workspaceId);
        await accounts.createInvitation(expiring, null);
        assert.deepEqual(await accounts.acceptInvitation(expiring.tokenHash, expiring.expiresAt, null, null), { outcome: 'invalid' }, 'the expiry instant is past');
        assert.equal(await metadata.countMembers(workspaceId), 1);
        assert.equal((await accounts.findInvitationByTokenHash(expiring.tokenHash))!.acceptedAt, null);
      });
    });

    describe('password links', () => {
      it('stores a link and finds it by token hash', async () => {
        const link = aPasswordLink();
        await accounts.createPasswordLink(link);
        assert.deepEqual(await accounts.findPasswordLink(link.tokenHash), link);
        assert.equal(await accounts.findPasswordLink(aTokenHash()), null);
        await assert.rejects(accounts.createPasswordLink({ ...link }), hasCode('already_exists'));
      });

      it('is used once, before it expires', async () => {
        const link = aPasswordLink();
        await accounts.createPasswordLink(link);
        const at = new Date(link.createdAt.getTime() + 1000);
        const outcomes = await Promise.all([0, 1].map(() => accounts.usePasswordLink(link.tokenHash, at)));
        assert.deepEqual(outcomes.filter((o) => o !== null), [{ ...link, usedAt: at }], 'exactly one of two concurrent uses wins');
        assert.deepEqual(await accounts.findPasswordLink(link.tokenHash), { ...link, usedAt: at });
        assert.equal(await accounts.usePasswordLink(link.tokenHash, new Date()), null);

        const expiring = aPasswordLink();
        await accounts.createPasswordLink(expiring);
        assert.equal(await accounts.usePasswordLink(expiring.tokenHash, expiring.expiresAt), null, 'the expiry instant is past');
        assert.equal(await accounts.usePasswordLink(aTokenHash(), new Date()), null);
      });

      it('revokes an email\'s older unused links when a new one is stored, and keeps used ones', async () => {
        const used = aPasswordLink();
        await accounts.createPasswordLink(used);
        const usedAt = new Date(used.createdAt.getTime() + 1000);
        assert.ok(await accounts.usePasswordLink(used.tokenHash, usedAt));
        const older = { ...aPasswordLink(), email: used.email };
        const oldest = { ...aPasswordLink(), email: used.email };
        const someoneElse = aPasswordLink();
        await accounts.createPasswordLink(oldest);
        await accounts.createPasswordLink(someoneElse);
        await accounts.createPasswordLink(older);
        const newest = { ...aPasswordLink(), email: used.email };
        await accounts.createPasswordLink(newest);
        for (const revoked of [oldest, older]) {
          assert.equal(await accounts.findPasswordLink(revoked.tokenHash), null, 'an older unused link is gone');
          assert.equal(await accounts.usePasswordLink(revoked.tokenHash, new Date()), null);
        }
        assert.deepEqual(await accounts.findPasswordLink(used.tokenHash), { ...used, usedAt }, 'a used link stays on record');
        assert.deepEqual(await accounts.findPasswordLink(someoneElse.tokenHash), someoneElse, 'other emails\' links stay');
        assert.ok(await accounts.usePasswordLink(newest.tokenHash, new Date()));
      });
    });

    describe('audit log', () => {
      const anEntry = (workspaceId: string, at: number, id: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
        id, workspaceId, at: new Date(at), actor: 'owner@example.test', action: 'member.role_changed', target: 'm@example.test',
        details: { from: 'member', to: 'admin', note: null }, ...overrides,
      });

      it('lists entries newest first, ties by id, in pages that continue after a position', async () => {
        const workspaceId = unique('ws');
        const entries = [
          anEntry(workspaceId, 1_000, 'aud_a'),
          anEntry(workspaceId, 3_000, 'aud_b', { actor: 'operator', action: 'api_key.created', target: null, details: {} }),
          anEntry(workspaceId, 2_000, 'aud_c'),
          anEntry(workspaceId, 2_000, 'aud_d'),
          anEntry(workspaceId, 2_000, 'aud_dd'),
          anEntry(workspaceId, 10_000_000_000_000, 'aud_e'),
        ];
        for (const entry of entries) await accounts.appendAudit(entry);
        await accounts.appendAudit(anEntry(unique('ws'), 5_000, 'aud_other'));
        const newestFirst = ['aud_e', 'aud_b', 'aud_dd', 'aud_d', 'aud_c', 'aud_a'];
        const all = await accounts.listAudit(workspaceId, 100, null);
        assert.deepEqual(all.map((e) => e.id), newestFirst);
        assert.deepEqual(all.find((e) => e.id === 'aud_b'), entries[1], 'entries come back as appended');
        assert.deepEqual(all.find((e) => e.id === 'aud_a'), entries[0]);

        const seen: string[] = [];
        for (let after = null as AuditEntry | null; ;) {
          const page = await accounts.listAudit(workspaceId, 2, after);
          seen.push(...page.map((e) => e.id));
          if (page.length < 2) break;
          after = page[page.length - 1]!;
        }
        assert.deepEqual(seen, newestFirst);
        assert.deepEqual((await accounts.listAudit(workspaceId, 10, { at: new Date(2_000), id: 'aud_d' })).map((e) => e.id), ['aud_c', 'aud_a']);
        assert.deepEqual((await accounts.listAudit(workspaceId, 10, { at: new Date(2_500), id: 'zzz' })).map((e) => e.id), ['aud_dd', 'aud_d', 'aud_c', 'aud_a'],
          'a position between entries works too');
        assert.deepEqual(await accounts.listAudit(workspaceId, 10, { at: new Date(1_000), id: 'aud_a' }), []);
        assert.deepEqual(await accounts.listAudit(unique('ws'), 10, null), []);
      });
    });
  });
}
