// Invitations: one-time links that make a person a member with a role, accepted with a new or an existing password.
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { invitationRefusal } from '../../domain/roles.js';
import { hashSecret, newOpaqueToken } from '../../domain/secrets.js';
import type { Invitation, MemberRole, Person, Workspace } from '../../domain/types.js';
import type { AccountStore, MetadataStore } from '../../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import { assertAcceptablePassword, type PasswordHasher } from './passwords.js';
import { normaliseEmail } from './people.js';
import type { ClientInfo, SessionPrincipal } from './principal.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { WorkspaceService } from './workspaces.js';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationView extends Invitation {
  status: InvitationStatus;
}

export interface PreviewedInvitation {
  workspace: Workspace;
  invitation: Invitation;
}

/** How far back the list reaches. */
const LIST_DAYS = 90;
const INVALID_LINK = 'this invitation is used, revoked, expired or unknown; ask for a new one';
/** The one answer for a wrong password, an account without one yet, and an account made meanwhile. */
const WRONG_PASSWORD = 'wrong password for the account this email has; if its password is not set yet or you have forgotten it, '
  + 'ask an operator for a set-password link (npm run admin -- member password), then accept with the password you set';

export class InvitationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly metadata: MetadataStore,
    private readonly workspaces: WorkspaceService,
    private readonly throttle: SignInThrottle,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly ttlHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private statusOf(invitation: Invitation): InvitationStatus {
    if (invitation.acceptedAt) return 'accepted';
    if (invitation.revokedAt) return 'revoked';
    return invitation.expiresAt <= this.now() ? 'expired' : 'pending';
  }

  async create(actor: SessionPrincipal, emailGiven: string, role: MemberRole, baseUrl: string): Promise<{ invitation: InvitationView; url: string }> {
    const refusal = invitationRefusal(actor.role, role);
    if (refusal) throw new AppError('role_required', refusal);
    const email = normaliseEmail(emailGiven);
    const now = this.now();
    const token = newOpaqueToken();
    const invitation: Invitation = {
      id: newId('inv', now.getTime()),
      workspaceId: actor.workspace.id,
      email,
      role,
      tokenHash: hashSecret(token),
      invitedBy: actor.person.email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlHours * 3_600_000),
      acceptedAt: null,
      revokedAt: null,
    };
    const { memberLimit } = this.workspaces.planFor(actor.workspace);
    const outcome = await this.accounts.createInvitation(invitation, memberLimit);
    if (outcome === 'already_member') throw new AppError('already_exists', `${email} is already a member of this workspace`);
    if (outcome === 'limit_reached') throw new AppError('limit_reached', `the plan allows ${memberLimit} member(s), pending invitations included`);
    await this.audit.record(invitation.workspaceId, actor.person.email, 'invitation.created', email, { invitation_id: invitation.id, role });
    return { invitation: { ...invitation, status: 'pending' }, url: `${baseUrl}/accept-invitation#token=${token}` };
  }

  async list(workspaceId: string): Promise<InvitationView[]> {
    const since = new Date(this.now().getTime() - LIST_DAYS * 86_400_000);
    return (await this.accounts.listInvitations(workspaceId, since)).map((invitation) => ({ ...invitation, status: this.statusOf(invitation) }));
  }

  async revoke(actor: SessionPrincipal, id: string): Promise<void> {
    const invitation = (await this.list(actor.workspace.id)).find((candidate) => candidate.id === id);
    // Inviting an owner is the owners'; so is taking such an invitation back.
    const refusal = invitationRefusal(actor.role, invitation?.role ?? 'member');
    if (refusal) throw new AppError('role_required', refusal);
    if (!(await this.accounts.revokeInvitation(actor.workspace.id, id, this.now()))) throw new AppError('not_found', `no pending invitation with id '${id}'`);
    await this.audit.record(actor.workspace.id, actor.person.email, 'invitation.revoked', invitation?.email ?? null, { invitation_id: id });
  }

  /** A pending invitation by its token; unknown, used, revoked and expired tokens count against the address. */
  private async pending(token: string, client: ClientInfo): Promise<{ invitation: Invitation; workspace: Workspace }> {
    // Assigned inside the check, which the compiler does not follow.
    let found = null as { invitation: Invitation; workspace: Workspace } | null;
    await this.throttle.attempt({ ip: client.ip }, async () => {
      const invitation = await this.accounts.findInvitationByTokenHash(hashSecret(token));
      const workspace = invitation && this.statusOf(invitation) === 'pending' ? await this.metadata.getWorkspace(invitation.workspaceId) : null;
      if (invitation && workspace) found = { invitation, workspace };
      return found !== null;
    });
    if (found === null) throw new AppError('invalid_link', INVALID_LINK);
    return found;
  }

  /**
   * What the invitation is for, and nothing about the account behind its email: whether one exists, here or in any
   * other workspace, is not the inviter's to learn.
   */
  async lookUp(token: string, client: ClientInfo): Promise<PreviewedInvitation> {
    return this.pending(token, client);
  }

  /**
   * An invitation proves nothing about who holds its link (the inviting admins have it too), so accepting never sets
   * the password of an account that exists, and answers alike whatever the email has: no account, one with a
   * password, or one whose password is not set yet. The password is checked against the new-password rules first
   * (which every password set here passed), then in one reserved, throttled attempt costing one password hash either
   * way: it is the account's password, or the email has no account at all and it becomes the password of a new one,
   * made with the membership in one step. That account belongs to this invitation's workspace: it says so (its
   * origin), and an operator's `member add` elsewhere refuses it until a set-password link an operator issued for
   * the email has been used (people.ts). Every other case is the same 401. Every outcome goes to the audit log.
   */
  async accept(token: string, password: string, client: ClientInfo): Promise<{ email: string; workspace: Workspace; role: MemberRole }> {
    const { invitation, workspace } = await this.pending(token, client);
    const { email } = invitation;
    const refuse = async (error: AppError): Promise<never> => {
      await this.audit.record(workspace.id, email, 'invitation.accept_refused', email, { invitation_id: invitation.id, reason: error.code, ip: client.ip });
      throw error;
    };
    const { memberLimit } = this.workspaces.planFor(workspace);
    // Before anything about the account: a full workspace answers alike for every email.
    if (memberLimit !== null && (await this.accounts.getMember(workspace.id, email)) === null && (await this.metadata.countMembers(workspace.id)) >= memberLimit) {
      await refuse(new AppError('limit_reached', `the workspace is full: its plan allows ${memberLimit} member(s)`));
    }
    assertAcceptablePassword(password, email, 'password');
    const now = this.now();
    // Assigned inside the check, which the compiler does not follow.
    let newPerson = null as Person | null;
    const right = await this.throttle.attempt({ account: email, ip: client.ip }, async () => {
      const person = await this.accounts.findPersonByEmail(email);
      if (person !== null || (await this.accounts.listMembershipsOf(email)).length > 0) {
        return this.hasher.verifyOrPretend(password, person?.passwordHash ?? null, client.ip);
      }
      const origin = { kind: 'invitation' as const, workspaceId: workspace.id, invitationId: invitation.id, invitedBy: invitation.invitedBy };
      newPerson = { id: newId('psn', now.getTime()), email, passwordHash: await this.hasher.hash(password, client.ip), createdAt: now, passwordChangedAt: now, origin, provedAt: null };
      return true;
    });
    if (!right) await refuse(new AppError('invalid_credentials', WRONG_PASSWORD));
    const accepted = await this.accounts.acceptInvitation(hashSecret(token), now, memberLimit, newPerson);
    if (accepted.outcome === 'invalid') await refuse(new AppError('invalid_link', INVALID_LINK));
    if (accepted.outcome === 'limit_reached') await refuse(new AppError('limit_reached', `the workspace is full: its plan allows ${memberLimit} member(s)`));
    // Someone made the account meanwhile: then this password is not known to be its.
    if (accepted.outcome === 'email_taken') await refuse(new AppError('invalid_credentials', WRONG_PASSWORD));
    // Already a member (added meanwhile): the invitation has nothing left to do; they keep the role they have.
    const role = accepted.outcome === 'already_member' ? (await this.accounts.getMember(workspace.id, email))?.role ?? invitation.role : invitation.role;
    await this.audit.record(workspace.id, email, 'invitation.accepted', email, { invitation_id: invitation.id, role, ip: client.ip });
    return { email, workspace, role };
  }
}
