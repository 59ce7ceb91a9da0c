// Workspace administration: workspaces, plans, members and API keys (the dashboard's job, reached via the admin CLI).
import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { apiKeyPrefix, hashSecret, newApiKey } from '../../domain/secrets.js';
import { quotaPeriod, quotaPeriodStart } from '../../domain/quota-period.js';
import type { Access, ApiKeyRecord, MemberRole, Plan, Workspace } from '../../domain/types.js';
import type { CaptureStore, MetadataStore } from '../../storage/ports.js';

export interface IssuedKey {
  id: string;
  key: string;
  access: Access;
}

export interface UsageFigures {
  periodStart: Date;
  used: number;
  monthlyLimit: number | null;
  /** null: messages are kept (the plan is not configured). */
  retentionDays: number | null;
  members: number;
  memberLimit: number | null;
  inboxes: number;
}

export const DEFAULT_WORKSPACE_NAME = 'default';

/** Workspaces on one plan that the configuration does not define. */
export interface UnconfiguredPlan {
  plan: string;
  workspaceIds: string[];
}

/** The smallest of a limit across plans; null (unlimited) only when every plan leaves it unlimited. */
function strictest(values: (number | null)[]): number | null {
  const bounded = values.filter((value): value is number => value !== null);
  return bounded.length > 0 ? Math.min(...bounded) : null;
}

/**
 * What a workspace gets whose plan the configuration does not define (removed from SANDBOX_PLANS, or a node started
 * without it): no retention at all, since a missing plan must never delete mail its real plan keeps, and for
 * everything else the strictest limit any configured plan sets, never more than the operator grants anyone.
 */
function unconfiguredPlan(name: string, plans: readonly Plan[]): Plan {
  return {
    name,
    configured: false,
    monthlyLimit: strictest(plans.map((plan) => plan.monthlyLimit)),
    retentionDays: null,
    memberLimit: strictest(plans.map((plan) => plan.memberLimit)),
    inboxLimit: strictest(plans.map((plan) => plan.inboxLimit)),
    webhookLimit: strictest(plans.map((plan) => plan.webhookLimit)),
    requestsPerSecond: strictest(plans.map((plan) => plan.requestsPerSecond)),
    tagRuleLimit: Math.min(...plans.map((plan) => plan.tagRuleLimit)),
  };
}

/** Plans are an operator's business, never the dashboard's: this is what the dashboard says about changing one. */
export const HOW_TO_CHANGE_PLAN = 'Plans are changed by an operator: npm run --silent admin -- plan set --workspace <ws> --plan <name>';

export function assertEmailAddress(email: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AppError('invalid_request', `'${email}' is not an email address`);
}

export class WorkspaceService {
  constructor(
    private readonly metadata: MetadataStore,
    /** Owns the monthly allowance: it charges captures and says how much is used. */
    private readonly quota: Pick<CaptureStore, 'quotaUsed'>,
    private readonly plans: Readonly<Record<string, Plan>>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The workspace's plan, or for a plan the configuration does not define, unconfiguredPlan's. */
  planFor(workspace: Workspace): Plan {
    return Object.hasOwn(this.plans, workspace.planName) ? this.plans[workspace.planName]! : unconfiguredPlan(workspace.planName, Object.values(this.plans));
  }

  /** Every workspace whose plan the configuration does not define, by plan name. */
  async unconfiguredPlans(): Promise<UnconfiguredPlan[]> {
    const byPlan = new Map<string, string[]>();
    for (const workspace of await this.metadata.listWorkspaces()) {
      if (Object.hasOwn(this.plans, workspace.planName)) continue;
      byPlan.set(workspace.planName, [...(byPlan.get(workspace.planName) ?? []), workspace.id]);
    }
    return [...byPlan].map(([plan, workspaceIds]) => ({ plan, workspaceIds }));
  }

  private requirePlan(planName: string): Plan {
    const plan = Object.hasOwn(this.plans, planName) ? this.plans[planName] : undefined;
    if (!plan) throw new AppError('invalid_request', `unknown plan '${planName}' (known: ${Object.keys(this.plans).join(', ')})`);
    return plan;
  }

  async requireWorkspace(id: string): Promise<Workspace> {
    const workspace = await this.metadata.getWorkspace(id);
    if (!workspace) throw new AppError('not_found', `no workspace with id '${id}'`);
    return workspace;
  }

  async createWorkspace(name: string, planName: string): Promise<{ workspace: Workspace; key: IssuedKey }> {
    if (name.trim().length === 0 || name.length > 100) throw new AppError('invalid_request', 'workspace name must be 1 to 100 characters');
    this.requirePlan(planName);
    const workspace: Workspace = { id: newId('ws'), name, planName, createdAt: this.now() };
    await this.metadata.createWorkspace(workspace);
    const key = await this.createKey(workspace.id, 'read_write');
    return { workspace, key };
  }

  listWorkspaces(): Promise<Workspace[]> {
    return this.metadata.listWorkspaces();
  }

  /** Creates the "default" workspace on first start; returns its key, or null when workspaces already exist. */
  async ensureDefaultWorkspace(): Promise<{ workspace: Workspace; key: IssuedKey } | null> {
    if ((await this.metadata.listWorkspaces()).length > 0) return null;
    // Several cluster nodes may start at once on empty storage: the shared secret elects exactly one creator.
    const claim = randomUUID();
    if ((await this.metadata.secret('default-workspace-creator', () => claim)) !== claim) return null;
    return this.createWorkspace(DEFAULT_WORKSPACE_NAME, 'unlimited');
  }

  async createKey(workspaceId: string, access: Access): Promise<IssuedKey> {
    const { record, key } = await this.issueKey(workspaceId, access, null);
    return { id: record.id, key, access };
  }

  /** A new key and its record; the key itself is never stored, so this is the only time it is known. */
  async issueKey(workspaceId: string, access: Access, name: string | null): Promise<{ record: ApiKeyRecord; key: string }> {
    await this.requireWorkspace(workspaceId);
    const key = newApiKey();
    const record: ApiKeyRecord = {
      id: newId('key'), workspaceId, access, name, prefix: apiKeyPrefix(key), keyHash: hashSecret(key), createdAt: this.now(), lastUsedAt: null, revokedAt: null,
    };
    await this.metadata.createApiKey(record);
    return { record, key };
  }

  async revokeKey(id: string): Promise<void> {
    if (!(await this.metadata.revokeApiKey(id, this.now()))) throw new AppError('not_found', `no API key with id '${id}'`);
  }

  async setPlan(workspaceId: string, planName: string): Promise<Workspace> {
    this.requirePlan(planName);
    if (!(await this.metadata.setWorkspacePlan(workspaceId, planName))) throw new AppError('not_found', `no workspace with id '${workspaceId}'`);
    return this.requireWorkspace(workspaceId);
  }

  async addMember(workspaceId: string, email: string, role: MemberRole): Promise<void> {
    const workspace = await this.requireWorkspace(workspaceId);
    assertEmailAddress(email);
    const member = { workspaceId, email: email.toLowerCase(), role, createdAt: this.now() };
    const { memberLimit } = this.planFor(workspace);
    const outcome = await this.metadata.addMember(member, memberLimit);
    if (outcome === 'already_member') throw new AppError('already_exists', `${member.email} is already a member of workspace ${workspaceId}`);
    if (outcome === 'limit_reached') throw new AppError('limit_reached', `the plan allows ${memberLimit} member(s)`);
  }

  async usage(workspace: Workspace): Promise<UsageFigures> {
    const now = this.now();
    const plan = this.planFor(workspace);
    const [used, members, inboxes] = await Promise.all([
      this.quota.quotaUsed(workspace.id, quotaPeriod(now)),
      this.metadata.countMembers(workspace.id),
      this.metadata.countInboxes(workspace.id),
    ]);
    return {
      periodStart: quotaPeriodStart(now),
      used,
      monthlyLimit: plan.monthlyLimit,
      retentionDays: plan.retentionDays,
      members,
      memberLimit: plan.memberLimit,
      inboxes,
    };
  }
}
