// Readiness: whether every component the backend depends on answers within a short deadline, for /readyz and the healthcheck.
import type { ReadinessProbe } from '../../storage/ports.js';
import { within } from '../../domain/deadline.js';

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

export interface ReadinessReport {
  ready: boolean;
  components: ComponentReadiness[];
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

/** Every probe at once, so the answer takes as long as the slowest component, never longer than the deadline. */
export async function checkReadiness(probes: readonly ReadinessProbe[], deadlineMs = PROBE_DEADLINE_MS): Promise<ReadinessReport> {
  const components = await Promise.all(probes.map((probe) => probeWithin(probe, deadlineMs)));
  return { ready: components.every((component) => component.ready), components };
}
