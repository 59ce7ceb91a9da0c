// A workspace's team: listing members, changing roles and removing people, under the role rules of domain/roles.ts.
import { AppError } from '../../errors.js';
import { removalRefusal, roleChangeRefusal } from '../../domain/roles.js';
import type { Member, MemberRole } from '../../domain/types.js';
import type { AccountStore } from '../../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import { normaliseEmail } from './people.js';
import type { SessionPrincipal } from './principal.js';
import type { SessionService } from './sessions.js';

export interface MemberView extends Member {
  /** False until the person has set a password (a member added by an operator). */
  hasAccount: boolean;
}

const LAST_OWNER = 'the workspace needs at least one owner; make someone else an owner first';

export class MemberService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly sessions: SessionService,
    private readonly audit: AuditLog,
  ) {}

  async list(workspaceId: string): Promise<MemberView[]> {
    const members = await this.accounts.listMembers(workspaceId);
    return Promise.all(members.map(async (member) => {
      const person = await this.accounts.findPersonByEmail(member.email);
      return { ...member, hasAccount: person?.passwordHash != null };
    }));
  }

  private async requireMember(workspaceId: string, email: string): Promise<Member> {
    const member = await this.accounts.getMember(workspaceId, email);
    if (!member) throw new AppError('not_found', `${email} is no member of this workspace`);
    return member;
  }

  async changeRole(actor: SessionPrincipal, emailGiven: string, role: MemberRole): Promise<Member> {
    const email = normaliseEmail(emailGiven);
    const workspaceId = actor.workspace.id;
    const target = await this.requireMember(workspaceId, email);
    const refusal = roleChangeRefusal(actor.role, target.role, role);
    if (refusal) throw new AppError('role_required', refusal);
    const outcome = await this.accounts.setMemberRole(workspaceId, email, role);
    if (outcome === 'last_owner') throw new AppError('last_owner', LAST_OWNER);
    if (outcome === 'not_found') throw new AppError('not_found', `${email} is no member of this workspace`);
    if (target.role !== role) await this.audit.record(workspaceId, actor.person.email, 'member.role_changed', email, { from: target.role, to: role });
    return { ...target, role };
  }

  /** Removing someone (or leaving) ends their sessions in this workspace at once. */
  async remove(actor: SessionPrincipal, emailGiven: string): Promise<string> {
    const email = normaliseEmail(emailGiven);
    const workspaceId = actor.workspace.id;
    const self = email === actor.person.email;
    const target = await this.requireMember(workspaceId, email);
    const refusal = removalRefusal(actor.role, self, target.role);
    if (refusal) throw new AppError('role_required', refusal);
    const outcome = await this.accounts.removeMember(workspaceId, email);
    if (outcome === 'last_owner') throw new AppError('last_owner', LAST_OWNER);
    if (outcome === 'not_found') throw new AppError('not_found', `${email} is no member of this workspace`);
    const person = await this.accounts.findPersonByEmail(email);
    if (person) await this.sessions.endIn(person.id, workspaceId);
    await this.audit.record(workspaceId, actor.person.email, self ? 'member.left' : 'member.removed', email, { role: target.role });
    return email;
  }
}
