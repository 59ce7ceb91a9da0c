// The per-workspace request rate of the workspace's plan, taken once per API request (the /v1 API and the Mailpit one).
import { AppError } from '../errors.js';
import type { Workspace } from '../domain/types.js';
import type { RateLimiter } from '../storage/ports.js';
import type { WorkspaceService } from '../services/accounts/workspaces.js';

export async function enforceRateLimit(limiter: RateLimiter, workspaces: WorkspaceService, workspace: Workspace): Promise<void> {
  const perSecond = workspaces.planFor(workspace).requestsPerSecond;
  if (perSecond === null) return;
  const decision = await limiter.take(`api:${workspace.id}`, perSecond);
  if (!decision.allowed) {
    throw new AppError('rate_limited', `more than ${perSecond} requests per second for this workspace; retry after ${decision.retryAfterSeconds}s`, {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
}
