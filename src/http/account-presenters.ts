// The dashboard's domain objects to API JSON (people, sessions, members, invitations, keys, plan, audit), as openapi.yaml describes them.
import type { ApiKeyRecord, AuditEntry, Member, MemberRole, Plan, SessionRecord, Workspace } from '../domain/types.js';
import type { InvitationView, PreviewedInvitation } from '../services/accounts/invitations.js';
import type { MemberView } from '../services/accounts/members.js';
import type { MeView, Membership } from '../services/accounts/people.js';
import type { UsageFigures } from '../services/accounts/workspaces.js';
import type { components } from '../contract/api-types.js';
import { usageJson, type DataOf } from './presenters.js';

type Schemas = components['schemas'];

const membershipJson = ({ workspace, role }: Membership): Schemas['WorkspaceMembership'] => ({ id: workspace.id, name: workspace.name, role });

export const meJson = (me: MeView): Schemas['Me'] => ({
  person: { id: me.person.id, email: me.person.email, created_at: me.person.createdAt.toISOString() },
  workspace: { id: me.workspace.id, name: me.workspace.name, role: me.role },
  workspaces: me.workspaces.map(membershipJson),
  csrf_token: me.session.csrfToken,
  session: { id: me.session.id, expires_at: me.session.expiresAt.toISOString(), idle_expires_at: me.session.idleExpiresAt.toISOString() },
});

export const sessionJson = (session: SessionRecord, currentId: string): Schemas['SessionInfo'] => ({
  id: session.id,
  created_at: session.createdAt.toISOString(),
  last_seen_at: session.lastSeenAt.toISOString(),
  expires_at: session.expiresAt.toISOString(),
  user_agent: session.userAgent,
  ip: session.ip,
  current: session.id === currentId,
});

export const memberJson = (member: Member | MemberView): Schemas['Member'] => ({
  email: member.email,
  role: member.role,
  joined_at: member.createdAt.toISOString(),
  has_account: 'hasAccount' in member ? member.hasAccount : true,
});

export const invitationJson = (invitation: InvitationView): Schemas['Invitation'] => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: invitation.status,
  invited_by: invitation.invitedBy,
  created_at: invitation.createdAt.toISOString(),
  expires_at: invitation.expiresAt.toISOString(),
});

export const apiKeyJson = (key: ApiKeyRecord): Schemas['ApiKey'] => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  access: key.access,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
});

export const planJson = (plan: Plan, usage: UsageFigures, howToChange: string): Schemas['PlanWithUsage'] => ({
  name: plan.name,
  configured: plan.configured,
  monthly_limit: plan.monthlyLimit,
  retention_days: plan.retentionDays,
  member_limit: plan.memberLimit,
  inbox_limit: plan.inboxLimit,
  webhook_limit: plan.webhookLimit,
  requests_per_second: plan.requestsPerSecond,
  tag_rule_limit: plan.tagRuleLimit,
  usage: usageJson(usage),
  how_to_change: howToChange,
});

export const auditEntryJson = (entry: AuditEntry): Schemas['AuditEntry'] => ({
  id: entry.id,
  at: entry.at.toISOString(),
  actor: entry.actor,
  action: entry.action,
  target: entry.target,
  details: entry.details,
});

/** What an invitation link offers, shown before the person accepts it. */
export const invitationPreviewJson = ({ workspace, invitation }: PreviewedInvitation): Schemas['InvitationPreview'] => ({
  workspace_name: workspace.name,
  email: invitation.email,
  role: invitation.role,
  expires_at: invitation.expiresAt.toISOString(),
});

export const acceptedInvitationJson = ({ email, workspace, role }: { email: string; workspace: Workspace; role: MemberRole }): DataOf<'acceptInvitation'> => ({
  email,
  workspace: { id: workspace.id, name: workspace.name, role },
  role,
});

/** Whose password a one-time link sets, and until when. */
export const passwordLinkJson = (link: { email: string; expiresAt: Date }): DataOf<'lookUpPasswordLink'> => ({ email: link.email, expires_at: link.expiresAt.toISOString() });
