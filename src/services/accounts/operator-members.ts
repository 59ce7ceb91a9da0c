// The admin CLI's `member add`: an operator gives an email a role, hears what account stands behind the email, and
// gives none silently to an account that another workspace's invitation made and nobody has proved since.
import { AppError } from '../../errors.js';
import type { MemberRole, Person, Workspace } from '../../domain/types.js';
import type { MetadataStore } from '../../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import { normaliseEmail, type OneTimeLink, type PeopleService } from './people.js';
import { assertEmailAddress, type WorkspaceService } from './workspaces.js';

/** How the account behind an email came to be, as the operator is told. */
export interface AccountHistory {
  person: Person;
  /** Made by this very step (the email had no account). */
  madeNow: boolean;
  /** The workspace whose invitation made it, when one did and it still exists. */
  invitedTo: Workspace | null;
}

export interface OperatorAddedMember {
  workspace: Workspace;
  email: string;
  role: MemberRole;
  account: AccountHistory;
  /** The link that sets the password, when the account has none yet. */
  link: OneTimeLink | null;
}

/** Whether the account holds a password that someone outside `workspaceId` chose and nobody has proved since. */
export const madeElsewhereUnproved = (person: Person, workspaceId: string): boolean =>
  person.origin.kind === 'invitation' && person.origin.workspaceId !== workspaceId && person.provedAt === null;

export class OperatorMembers {
  constructor(
    private readonly metadata: MetadataStore,
    private readonly workspaces: WorkspaceService,
    private readonly people: PeopleService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Adds the member, the person first (an operator's, without a password, when the email has none), so an invitation
   * accepted meanwhile finds an account it cannot set. `trustAccount`: the operator knows an account made through
   * another workspace's invitation is the email's owner's.
   */
  async add(workspaceId: string, emailGiven: string, role: MemberRole, options: { trustAccount: boolean }, baseUrl: string): Promise<OperatorAddedMember> {
    const email = normaliseEmail(emailGiven);
    const workspace = await this.workspaces.requireWorkspace(workspaceId);
    assertEmailAddress(email);
    const { person, created: madeNow } = await this.people.ensurePerson(email);
    const invitedTo = person.origin.kind === 'invitation' ? await this.metadata.getWorkspace(person.origin.workspaceId) : null;
    const account: AccountHistory = { person, madeNow, invitedTo };
    const unproved = madeElsewhereUnproved(person, workspace.id);
    if (unproved && !options.trustAccount) throw new AppError('account_unproved', refusal(account));
    await this.workspaces.addMember(workspace.id, email, role);
    // Issued with the membership, so no membership waits for a password that whoever comes first could choose.
    const link = person.passwordHash === null ? await this.people.passwordLinkFor(email, baseUrl) : null;
    await this.audit.record(workspace.id, 'operator', 'member.added', email, {
      role,
      account: madeNow ? 'made_now' : unproved ? 'made_by_another_workspace_invitation_trusted_by_operator' : 'existing',
    });
    return { workspace, email, role, account, link };
  }
}

/** The account's story in one sentence, for the operator. */
export function describeAccount({ person, madeNow, invitedTo }: AccountHistory): string {
  if (madeNow) return `${person.email} had no account; it is made now, without a password`;
  const made = person.origin.kind === 'invitation'
    ? `made ${person.createdAt.toISOString()} by accepting an invitation to workspace ${person.origin.workspaceId}${invitedTo ? ` (${invitedTo.name})` : ''} from ${person.origin.invitedBy}`
    : `made ${person.createdAt.toISOString()} by an operator`;
  const password = person.passwordHash === null
    ? 'no password is set yet'
    : person.provedAt !== null
      ? `its password was set ${person.provedAt.toISOString()} from an operator's set-password link`
      : `its password was chosen ${person.passwordChangedAt?.toISOString() ?? 'at an unknown time'} by whoever held the account, never from an operator's set-password link`;
  return `${person.email} has an account ${made}; ${password}`;
}

function refusal(account: AccountHistory): string {
  const { email } = account.person;
  return `${describeAccount(account)}. Whoever held that invitation's link chose the password (the inviting workspace's admins had the link `
    + `too), and nobody has shown since that ${email}'s owner holds the account, so it gets no role here. Prove it first: `
    + `\`member password --email ${email}\` prints a link for its owner; once they set their password with it, add them again. `
    + 'Or pass --trust-account if you know they made that account themselves.';
}
