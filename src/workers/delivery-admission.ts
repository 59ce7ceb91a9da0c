// Which webhook attempts this node may start: in-flight caps per workspace and per receiver, and a breaker per
// workspace and receiver that keeps not answering, so one tenant's slow or dead receiver cannot hold everyone's deliveries.
import type { ClaimShares } from '../storage/ports.js';
import { KeyedCounts } from '../domain/keyed-counts.js';

export interface AdmissionLimits {
  /** Deliveries of one workspace claimed or in flight at once. */
  perWorkspace: number;
  /** Attempts to one receiver (host and port) in flight at once. */
  perHost: number;
  /** A workspace's attempts in a row to a receiver without an answer (timed out, no connection) after which it cools off for the workspace. */
  breakerFailures: number;
  /** How long a cooling-off receiver's deliveries (of that workspace) are put off without an attempt. */
  coolOffMs: number;
}

/** May an attempt to the receiver start: yes (a slot is taken), not now (its slots are taken), or not until `until`. */
export type ReceiverAdmission = { kind: 'go' } | { kind: 'busy' } | { kind: 'cooling_off'; until: Date };

/** How an attempt to the receiver ended, as far as the breaker is concerned. */
export type ReceiverReach = 'answered' | 'no_answer' | 'abandoned';

interface ReceiverHealth {
  failuresInARow: number;
  /** While set and in the future, the receiver cools off; once past, the next attempt is the probe. */
  openUntil: number | null;
  probing: boolean;
}

/** Receivers with a failure on record and webhooks whose receiver is known, each kept to this many (oldest forgotten). */
const TRACKED_LIMIT = 10_000;

/** The receiver a webhook URL names: host and port, as one server (another port is another receiver). */
export function receiverOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/** A webhook's receiver, and the breaker its attempts go through: the workspace's own for that receiver. */
interface Route {
  receiver: string;
  breaker: string;
}

export class DeliveryAdmission {
  private readonly byWorkspace = new KeyedCounts();
  private readonly byReceiver = new KeyedCounts();
  /**
   * Breakers per workspace and receiver: one workspace's attempts that get no answer (a path of a shared host that
   * hangs, its own name lookups refused) cool the receiver off for that workspace only, never for the others.
   */
  private readonly health = new Map<string, ReceiverHealth>();
  /** Webhook id to its route, learnt from attempts: a claim leaves out the webhooks whose route is blocked. */
  private readonly routeOfWebhook = new Map<string, Route>();

  constructor(private readonly limits: AdmissionLimits, private readonly now: () => number = Date.now) {}

  /** A claimed delivery holds one of its workspace's slots until `released`. */
  claimed(workspaceId: string): void {
    this.byWorkspace.add(workspaceId);
  }

  released(workspaceId: string): void {
    this.byWorkspace.remove(workspaceId);
  }

  /** What the next claim may take: the room each busy workspace has left, and the webhooks to leave alone. */
  shares(): ClaimShares {
    const workspaceRoom = new Map<string, number>();
    for (const [workspaceId, held] of this.byWorkspace.entries()) workspaceRoom.set(workspaceId, Math.max(0, this.limits.perWorkspace - held));
    const skipWebhooks = new Set<string>();
    const anyProbeOut = [...this.health.values()].some((health) => health.probing);
    const anyReceiverFull = [...this.byReceiver.values()].some((held) => held >= this.limits.perHost);
    if (anyProbeOut || anyReceiverFull) {
      for (const [webhookId, route] of this.routeOfWebhook) if (this.blocked(route)) skipWebhooks.add(webhookId);
    }
    return { perWorkspace: this.limits.perWorkspace, workspaceRoom, skipWebhooks };
  }

  /** Asks to start an attempt for the workspace's webhook to its receiver; on 'go' the caller must `settle` it. */
  admit(webhookId: string, workspaceId: string, receiver: string): ReceiverAdmission {
    const route = { receiver, breaker: breakerKey(workspaceId, receiver) };
    remember(this.routeOfWebhook, webhookId, route);
    const health = this.health.get(route.breaker);
    if (health?.openUntil != null && this.now() < health.openUntil) return { kind: 'cooling_off', until: new Date(health.openUntil) };
    if (this.byReceiver.of(receiver) >= this.limits.perHost) return { kind: 'busy' };
    if (health?.openUntil != null) {
      // Cooled off: one attempt probes the receiver; the workspace's others wait for what it finds.
      if (health.probing) return { kind: 'busy' };
      health.probing = true;
    }
    this.byReceiver.add(receiver);
    return { kind: 'go' };
  }

  /** Gives back the receiver's slot and tells the workspace's breaker how the attempt went; true when this opened it. */
  settle(workspaceId: string, receiver: string, reach: ReceiverReach): boolean {
    this.byReceiver.remove(receiver);
    const key = breakerKey(workspaceId, receiver);
    const health = this.health.get(key);
    if (reach === 'answered') {
      this.health.delete(key);
      return false;
    }
    if (reach === 'abandoned') {
      if (health) health.probing = false;
      return false;
    }
    const updated = health ?? { failuresInARow: 0, openUntil: null, probing: false };
    updated.failuresInARow++;
    const opens = updated.probing || updated.failuresInARow >= this.limits.breakerFailures;
    if (opens) updated.openUntil = this.now() + this.limits.coolOffMs;
    updated.probing = false;
    remember(this.health, key, updated);
    return opens;
  }

  /**
   * Claims leave the webhook alone: its receiver's slots are taken, or its breaker's probe is out. A cooling-off
   * breaker's deliveries are still claimed, to be deferred to the end of the cool-off, once each: their records then
   * say when.
   */
  private blocked(route: Route): boolean {
    return this.byReceiver.of(route.receiver) >= this.limits.perHost || this.health.get(route.breaker)?.probing === true;
  }
}

const breakerKey = (workspaceId: string, receiver: string) => `${workspaceId} ${receiver}`;

/** Sets the entry as the newest, forgetting the oldest past TRACKED_LIMIT. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > TRACKED_LIMIT) map.delete(map.keys().next().value!);
}
