// The connection caps of a listening port (or of two ports together), for the HTTP and the SMTP front doors alike:
// how many connections are open at once, overall and from each client address, and how many of them may be
// connections that have not authenticated, overall and from each address. Strangers who never authenticate take
// only part of the overall cap, each address a small part of that, and near the cap the oldest idle one of theirs
// is closed to admit a newcomer, so a few addresses that open connections and say nothing cannot shut out everyone.

/**
 * The listen backlog of every front door (Linux caps it at net.core.somaxconn, 4096 by default). Evicted strangers
 * come back together, and past Node's default of 511 the kernel drops the burst's SYNs: a newcomer caught in it
 * waits a whole SYN retransmit (1 s) before it is even queued. The queue drains one connection per listener per
 * event-loop turn (libuv), so what stays is a newcomer's wait behind the handshakes queued before its own.
 */
export const LISTEN_BACKLOG = 4096;

export interface ConnectionLimits {
  /** Connections open at once. */
  max: number;
  /** Connections open at once from one address key (a proxy's clients share the proxy's). */
  perAddress: number;
  /** Unauthenticated connections open at once; the rest of `max` is kept for connections that have authenticated. */
  unauthenticatedMax: number;
  /** Unauthenticated connections open at once from one address key. */
  unauthenticatedPerAddress: number;
}

/**
 * Which cap refused a connection: `overall` (every connection open is authenticated or busy), `unauthenticated`
 * (the unauthenticated share is taken, and none of it idle), `address` (this address's connections) or
 * `address_unauthenticated` (this address's unauthenticated ones).
 */
export type ConnectionCap = 'overall' | 'unauthenticated' | 'address' | 'address_unauthenticated';

/** A connection's place under the caps, from its admission until its close. */
export interface ConnectionPlace {
  /** It has authenticated: from now on it counts only against `max` and `perAddress`, and is never evicted. */
  authenticated(): void;
  /** A request or command of it is being served; an unauthenticated connection is evicted only while idle. */
  busy(): void;
  /** What `busy` started is answered. */
  idle(): void;
  /** Gives the place back; only the first call counts. */
  release(): void;
}

/** What one address key holds. */
interface AddressHold {
  open: number;
  unauthenticated: number;
  /**
   * Its idle unauthenticated connections, in the order they became idle (the first has idled longest): how to evict
   * each, and when it became idle (a count of the caps', not a clock).
   */
  idle: Map<() => void, number>;
}

export class ConnectionCaps {
  private open = 0;
  private unauthenticated = 0;
  /** Counts each time a connection becomes idle: which idled first. */
  private idleSince = 0;
  private readonly byAddress = new Map<string, AddressHold>();

  constructor(readonly limits: ConnectionLimits) {}

  /**
   * Counts a new (unauthenticated) connection from `key` and answers its place; or, counting nothing, the cap it would
   * pass. At the overall cap or the unauthenticated share, the oldest idle unauthenticated connection of the address
   * that holds the most unauthenticated ones is evicted (its place given back, then the `close` it was claimed with
   * called) to make room, rather than the newcomer refused.
   */
  claim(key: string, close: () => void): ConnectionPlace | ConnectionCap {
    const own = this.byAddress.get(key);
    if (own && own.open >= this.limits.perAddress) return 'address';
    if (own && own.unauthenticated >= this.limits.unauthenticatedPerAddress) return 'address_unauthenticated';
    const full = () => this.open >= this.limits.max || this.unauthenticated >= this.limits.unauthenticatedMax;
    if (full() && !this.evictOne()) return this.open >= this.limits.max ? 'overall' : 'unauthenticated';
    const hold = this.byAddress.get(key) ?? { open: 0, unauthenticated: 0, idle: new Map() };
    this.byAddress.set(key, hold);
    this.open++;
    this.unauthenticated++;
    hold.open++;
    hold.unauthenticated++;
    let signedIn = false;
    let requests = 0;
    let released = false;
    const leaveUnauthenticated = () => {
      hold.idle.delete(evict);
      this.unauthenticated--;
      hold.unauthenticated--;
    };
    const place: ConnectionPlace = {
      authenticated: () => {
        if (released || signedIn) return;
        signedIn = true;
        leaveUnauthenticated();
      },
      busy: () => {
        if (released) return;
        requests++;
        hold.idle.delete(evict);
      },
      idle: () => {
        if (released || requests === 0) return;
        requests--;
        if (requests === 0 && !signedIn) hold.idle.set(evict, ++this.idleSince);
      },
      release: () => {
        if (released) return;
        released = true;
        if (!signedIn) leaveUnauthenticated();
        this.open--;
        hold.open--;
        if (hold.open === 0) this.byAddress.delete(key);
      },
    };
    function evict(): void {
      place.release();
      close();
    }
    hold.idle.set(evict, ++this.idleSince);
    return place;
  }

  /** Connections open now, and how many of them have not authenticated. */
  counts(): { open: number; unauthenticated: number } {
    return { open: this.open, unauthenticated: this.unauthenticated };
  }

  /** Evicts the idle unauthenticated connection that has idled longest of the address holding the most unauthenticated ones. */
  private evictOne(): boolean {
    let chosen: { hold: AddressHold; evict: () => void; since: number } | null = null;
    for (const hold of this.byAddress.values()) {
      const [oldest] = hold.idle;
      if (!oldest) continue;
      const [evict, since] = oldest;
      const better = chosen === null || hold.unauthenticated > chosen.hold.unauthenticated
        || (hold.unauthenticated === chosen.hold.unauthenticated && since < chosen.since);
      if (better) chosen = { hold, evict, since };
    }
    if (chosen === null) return false;
    chosen.evict();
    return true;
  }
}
