// Invitations: one-time links that make a person a member with a role, accepted with a new or an existing password.
import { AppError } from '../errors.js';
import { newId } from '../domain/ids.js';
import { invitationRefusal } from '../domain/roles.js';
import { hashSecret, newOpaqueToken } from '../domain/secrets.js';
import type { Invitation, MemberRole, Workspace } from '../domain/types.js';
import type { AccountStore, MetadataStore } from '../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import { assertAcceptablePassword, hashPassword, verifyOrPretend } from './passwords.js';
import { normaliseEmail } from './people.js';
import type { ClientInfo, SessionPrincipal } from './principal.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { WorkspaceService } from './workspaces.js';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationView extends Invitation {
  status: InvitationStatus;
}

export interface InvitationPreview {
  workspace: Workspace;
  invitation: Invitation;
  /** True: accept with that account's password; false: the password given becomes it. */
  accountExists: boolean;
}

/** How far back the list reaches. */
const LIST_DAYS = 90;
const INVALID_LINK = 'this invitation is used, revoked, expired or unknown; ask for a new one';

export class InvitationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly metadata: MetadataStore,
    private readonly workspaces: WorkspaceService,
    private readonly throttle: SignInThrottle,
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
    await this.throttle.assertAllowed({ ip: client.ip });
    const invitation = await this.accounts.findInvitationByTokenHash(hashSecret(token));
    const workspace = invitation && this.statusOf(invitation) === 'pending' ? await this.metadata.getWorkspace(invitation.workspaceId) : null;
    if (!invitation || !workspace) {
      await this.throttle.recordFailure({ ip: client.ip });
      throw new AppError('invalid_link', INVALID_LINK);
    }
    return { invitation, workspace };
  }

  async lookUp(token: string, client: ClientInfo): Promise<InvitationPreview> {
    const { invitation, workspace } = await this.pending(token, client);
    const person = await this.accounts.findPersonByEmail(invitation.email);
    return { workspace, invitation, accountExists: person?.passwordHash != null };
  }

  /**
   * With an account: its password must be right (a wrong one counts like a failed sign-in). Without: the password
   * given becomes it, once the invitation is accepted.
   */
  async accept(token: string, password: string, client: ClientInfo): Promise<{ email: string; workspace: Workspace; role: MemberRole }> {
    const { invitation, workspace } = await this.pending(token, client);
    const { email } = invitation;
    const person = await this.accounts.findPersonByEmail(email);
    let newPasswordHash: string | null = null;
    if (person?.passwordHash != null) {
      const keys = { account: email, ip: client.ip };
      await this.throttle.assertAllowed(keys);
      if (!(await verifyOrPretend(password, person.passwordHash))) {
        await this.throttle.recordFailure(keys);
        throw new AppError('invalid_credentials', `wrong password for ${email}`);
      }
    } else {
      assertAcceptablePassword(password, email, 'password');
      newPasswordHash = await hashPassword(password);
    }
    const now = this.now();
    const { memberLimit } = this.workspaces.planFor(workspace);
    const accepted = await this.accounts.acceptInvitation(hashSecret(token), now, memberLimit);
    if (accepted.outcome === 'invalid') throw new AppError('invalid_link', INVALID_LINK);
    if (accepted.outcome === 'limit_reached') throw new AppError('limit_reached', `the workspace is full: its plan allows ${memberLimit} member(s)`);
    // Already a member (added meanwhile): the invitation has nothing left to do; they keep the role they have.
    const role = accepted.outcome === 'already_member' ? (await this.accounts.getMember(workspace.id, email))?.role ?? invitation.role : invitation.role;
    if (newPasswordHash !== null) {
      const created = person ? 'email_taken' : await this.accounts.createPerson({ id: newId('psn', now.getTime()), email, passwordHash: newPasswordHash, createdAt: now, passwordChangedAt: now });
      if (created === 'email_taken') {
        const existing = person ?? await this.accounts.findPersonByEmail(email);
        if (existing) await this.accounts.setPersonPassword(existing.id, newPasswordHash, now);
      }
    }
    await this.audit.record(workspace.id, email, 'invitation.accepted', email, { invitation_id: invitation.id, role });
    return { email, workspace, role };
  }
}
