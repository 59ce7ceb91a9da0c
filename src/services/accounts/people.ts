// People and their passwords: signing in, the signed-in person, password changes, and one-time set-password links
// (from the first start and the admin CLI).
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { hashSecret, newOpaqueToken } from '../../domain/secrets.js';
import type { MemberRole, PasswordLink, Person, SessionRecord, Workspace } from '../../domain/types.js';
import type { AccountStore, MetadataStore } from '../../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import { DEVICE_TOKEN_DAYS, type DeviceTokens } from './device-tokens.js';
import { assertAcceptablePassword, type PasswordHasher } from './passwords.js';
import type { ClientInfo, SessionPrincipal } from './principal.js';
import type { SessionService } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';

export interface Membership {
  workspace: Workspace;
  role: MemberRole;
}

/** The signed-in person as the dashboard shows them. */
export interface MeView {
  person: Person;
  workspace: Workspace;
  role: MemberRole;
  workspaces: Membership[];
  session: SessionRecord;
}

export interface OneTimeLink {
  url: string;
  expiresAt: Date;
}

const WRONG_CREDENTIALS = 'wrong email or password';
const INVALID_LINK = 'this link is used, expired or unknown; ask for a new one';

/** The device cookie a sign-in sets, and when the browser may forget it. */
export interface DeviceCookieValue {
  value: string;
  expiresAt: Date;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export class PeopleService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly metadata: MetadataStore,
    private readonly sessions: SessionService,
    private readonly throttle: SignInThrottle,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly devices: DeviceTokens,
    private readonly passwordLinkTtlHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The person's workspaces with their role in each, oldest membership first. */
  async memberships(email: string): Promise<Membership[]> {
    const members = await this.accounts.listMembershipsOf(email);
    const found = await Promise.all(members.map(async (member) => ({ workspace: await this.metadata.getWorkspace(member.workspaceId), role: member.role })));
    return found.filter((entry): entry is Membership => entry.workspace !== null);
  }

  async describe(principal: SessionPrincipal): Promise<MeView> {
    return {
      person: principal.person,
      workspace: principal.workspace,
      role: principal.role,
      workspaces: await this.memberships(principal.person.email),
      session: principal.session,
    };
  }

  /**
   * One answer, in one time, for an unknown email and a wrong password; throttled per account and per address, or per
   * browser when its device cookie holds a token for the account. A right password renews that token.
   */
  async signIn(emailGiven: string, password: string, workspaceId: string | undefined, client: ClientInfo): Promise<{ token: string; me: MeView; deviceCookie: DeviceCookieValue }> {
    const email = normaliseEmail(emailGiven);
    // Read before the throttle only for a browser that shows a device cookie, so a refused flood costs no read.
    const shown = client.deviceCookie === null ? null : await this.accounts.findPersonByEmail(email);
    const device = shown === null ? null : await this.devices.recognise(client.deviceCookie, email, shown.passwordChangedAt);
    // Assigned inside the check, which the compiler does not follow.
    let person = null as Person | null;
    const right = await this.throttle.attempt({ account: email, ip: client.ip, ...(device === null ? {} : { device }) }, async () => {
      person = shown ?? await this.accounts.findPersonByEmail(email);
      return (await this.hasher.verifyOrPretend(password, person?.passwordHash ?? null, client.ip)) && person !== null;
    });
    if (!right || person === null) throw new AppError('invalid_credentials', WRONG_CREDENTIALS);
    const signedIn = person;
    const deviceCookie = {
      value: await this.devices.issue(client.deviceCookie, email, signedIn.passwordChangedAt),
      expiresAt: new Date(this.now().getTime() + DEVICE_TOKEN_DAYS * 86_400_000),
    };
    const workspaces = await this.memberships(email);
    const chosen = workspaceId === undefined ? workspaces[0] : workspaces.find((entry) => entry.workspace.id === workspaceId);
    if (!chosen) {
      throw new AppError('no_workspace', workspaceId === undefined ? 'you belong to no workspace; ask an admin for an invitation' : `you are no member of a workspace with id '${workspaceId}'`);
    }
    const { token, session } = await this.sessions.start(signedIn, chosen.workspace.id, client);
    await this.audit.record(chosen.workspace.id, email, 'session.signed_in', email, { ip: client.ip });
    return { token, me: { person: signedIn, workspace: chosen.workspace, role: chosen.role, workspaces, session }, deviceCookie };
  }

  /**
   * Ends every other session of the person; a wrong current password counts as a failed sign-in, under the session's
   * own limit (it is signed in already), so a crowd guessing the account does not keep its owner from changing it.
   */
  async changePassword(principal: SessionPrincipal, current: string, next: string, client: ClientInfo): Promise<number> {
    const { person } = principal;
    const keys = { account: person.email, ip: client.ip, device: `session:${principal.session.id}` };
    const right = await this.throttle.attempt(keys, () => this.hasher.verifyOrPretend(current, person.passwordHash, client.ip));
    if (!right) throw new AppError('invalid_credentials', 'the current password is wrong');
    assertAcceptablePassword(next, person.email, 'new_password');
    await this.accounts.setPersonPassword(person.id, await this.hasher.hash(next, client.ip), this.now(), false);
    const ended = await this.sessions.endAll(person.id, principal.session.id);
    await this.audit.record(principal.workspace.id, person.email, 'person.password_changed', person.email);
    return ended;
  }

  /** The person, made by the operator without a password unless they exist; `created` when this call made them. */
  async ensurePerson(email: string): Promise<{ person: Person; created: boolean }> {
    const found = await this.accounts.findPersonByEmail(email);
    if (found) return { person: found, created: false };
    const now = this.now();
    const person: Person = { id: newId('psn', now.getTime()), email, passwordHash: null, createdAt: now, passwordChangedAt: null, origin: { kind: 'operator' }, provedAt: null };
    // Another node or request may create them at the same moment; either way they exist afterwards.
    if ((await this.accounts.createPerson(person)) === 'created') return { person, created: true };
    return { person: (await this.accounts.findPersonByEmail(email))!, created: false };
  }

  private async issuePasswordLink(email: string, baseUrl: string): Promise<OneTimeLink> {
    const now = this.now();
    const token = newOpaqueToken();
    const expiresAt = new Date(now.getTime() + this.passwordLinkTtlHours * 3_600_000);
    await this.accounts.createPasswordLink({ tokenHash: hashSecret(token), email, createdAt: now, expiresAt, usedAt: null });
    return { url: `${baseUrl}/set-password#token=${token}`, expiresAt };
  }

  /** First start: the default workspace's owner, without a password, and the link that sets it. */
  async createFirstOwner(workspace: Workspace, emailGiven: string, baseUrl: string): Promise<OneTimeLink> {
    const email = normaliseEmail(emailGiven);
    await this.ensurePerson(email);
    await this.metadata.addMember({ workspaceId: workspace.id, email, role: 'owner', createdAt: this.now() }, null);
    return this.issuePasswordLink(email, baseUrl);
  }

  /** The admin CLI's `member password`: a link for anyone who is a member somewhere; older unused links stop working. */
  async passwordLinkFor(emailGiven: string, baseUrl: string): Promise<OneTimeLink> {
    const email = normaliseEmail(emailGiven);
    if ((await this.accounts.listMembershipsOf(email)).length === 0) throw new AppError('not_found', `${email} is no member of any workspace`);
    await this.ensurePerson(email);
    return this.issuePasswordLink(email, baseUrl);
  }

  /** A link's email and expiry; unknown, used and expired tokens count against the address. */
  async lookUpPasswordLink(token: string, client: ClientInfo): Promise<{ email: string; expiresAt: Date }> {
    // Assigned inside the check, which the compiler does not follow.
    let link = null as PasswordLink | null;
    const valid = await this.throttle.attempt({ ip: client.ip }, async () => {
      link = await this.accounts.findPasswordLink(hashSecret(token));
      return link !== null && link.usedAt === null && link.expiresAt > this.now();
    });
    if (!valid || link === null) throw new AppError('invalid_link', INVALID_LINK);
    return { email: link.email, expiresAt: link.expiresAt };
  }

  /** Sets the password and ends every session of the person; the link works once. */
  async setPasswordFromLink(token: string, password: string, client: ClientInfo): Promise<string> {
    const { email } = await this.lookUpPasswordLink(token, client);
    // Checked before the link is spent, so a refused password leaves it usable.
    assertAcceptablePassword(password, email, 'password');
    const passwordHash = await this.hasher.hash(password, client.ip);
    const link = await this.accounts.usePasswordLink(hashSecret(token), this.now());
    if (!link) throw new AppError('invalid_link', INVALID_LINK);
    const { person } = await this.ensurePerson(link.email);
    // The operator issued the link for this email and handed it to its owner: the account is theirs now.
    await this.accounts.setPersonPassword(person.id, passwordHash, this.now(), true);
    await this.sessions.endAll(person.id);
    for (const member of await this.accounts.listMembershipsOf(link.email)) {
      await this.audit.record(member.workspaceId, link.email, 'person.password_set', link.email);
    }
    return link.email;
  }
}
