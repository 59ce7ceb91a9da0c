// Readiness: whether every component the backend depends on answers within a short deadline, for /readyz and the
// healthcheck, and what an operator should fix that does not make the server unready.
import type { ReadinessProbe } from '../../storage/ports.js';
import { within } from '../../domain/deadline.js';
import type { UnconfiguredPlan } from '../accounts/workspaces.js';

/** Long enough for a loaded server to answer, short enough that an orchestrator's probe (often 5 s) gets an answer. */
export const PROBE_DEADLINE_MS = 2000;

export interface ComponentReadiness {
  component: string;
  ready: boolean;
  /** How long it took to answer, or to be given up on. */
  ms: number;
  /** Why it is not ready. */
  error?: string;
}

/** A problem for an operator that leaves the server ready. */
export interface ReadinessWarning {
  code: 'plan_not_configured';
  message: string;
}

export interface ReadinessReport {
  ready: boolean;
  components: ComponentReadiness[];
  warnings: ReadinessWarning[];
}

/** /readyz is open and never rate limited: what its warnings cost to look up is paid at most this often. */
const WARNINGS_MAX_AGE_MS = 60_000;

/**
 * One warning per plan some workspaces are on that the configuration does not define. It counts them and does not
 * name them: /readyz needs no key, so workspace ids stay in the server log.
 */
export function planWarnings(unconfigured: readonly UnconfiguredPlan[]): ReadinessWarning[] {
  return unconfigured.map(({ plan, workspaceIds }) => ({
    code: 'plan_not_configured',
    message: `${workspaceIds.length} workspace(s) are on plan '${plan}', which SANDBOX_PLANS does not define: their mail is kept (no retention) and the strictest configured limits apply; define the plan or move them (admin plan set); the server log names them`,
  }));
}

/** `load`, answered from its last result until that is `maxAgeMs` old; callers meanwhile share one lookup, and a failed one is not kept. */
export function cachedWarnings(load: () => Promise<ReadinessWarning[]>, maxAgeMs = WARNINGS_MAX_AGE_MS, now = () => performance.now()): () => Promise<ReadinessWarning[]> {
  let last: { at: number; warnings: Promise<ReadinessWarning[]> } | null = null;
  return () => {
    if (last === null || now() - last.at >= maxAgeMs) {
      const entry = { at: now(), warnings: load() };
      last = entry;
      entry.warnings.catch(() => {
        if (last === entry) last = null;
      });
    }
    return last.warnings;
  };
}

async function probeWithin(probe: ReadinessProbe, deadlineMs: number): Promise<ComponentReadiness> {
  const started = performance.now();
  try {
    await within(probe.check(), deadlineMs, () => new Error(`no answer within ${deadlineMs} ms`));
    return { component: probe.component, ready: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { component: probe.component, ready: false, ms: Math.round(performance.now() - started), error: (error as Error).message || String(error) };
  }
}

/**
 * Every probe at once, and the warnings beside them, so the answer takes as long as the slowest component, never
 * longer than the deadline. Warnings that cannot be had in time are left out: the probes say what is down.
 */
export async function checkReadiness(
  probes: readonly ReadinessProbe[],
  warnings: () => Promise<ReadinessWarning[]> = async () => [],
  deadlineMs = PROBE_DEADLINE_MS,
): Promise<ReadinessReport> {
  const [components, found] = await Promise.all([
    Promise.all(probes.map((probe) => probeWithin(probe, deadlineMs))),
    within(warnings(), deadlineMs, () => new Error('warnings overdue')).catch((): ReadinessWarning[] => []),
  ]);
  return { ready: components.every((component) => component.ready), components, warnings: found };
}
