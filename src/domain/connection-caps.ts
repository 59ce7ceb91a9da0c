// The connection caps of a listening port (or of two ports together): how many connections are open at once, overall
// and from each client address. One count for both the HTTP and the SMTP front doors, taken when a socket is accepted.
import { KeyedCounts } from './keyed-counts.js';

export interface ConnectionLimits {
  /** Connections open at once. */
  max: number;
  /** Connections open at once from one socket address (a proxy's clients share the proxy's). */
  perAddress: number;
}

/** Which cap a connection would pass. */
export type ConnectionCap = 'overall' | 'address';

export class ConnectionCaps {
  private open = 0;
  private readonly byAddress = new KeyedCounts();

  constructor(readonly limits: ConnectionLimits) {}

  /**
   * Counts a connection from `address` and answers how to give its place back (exactly once, when it closes); or,
   * counting nothing, the cap it would pass.
   */
  claim(address: string): { release: () => void } | ConnectionCap {
    if (this.open >= this.limits.max) return 'overall';
    if (this.byAddress.of(address) >= this.limits.perAddress) return 'address';
    this.open++;
    this.byAddress.add(address);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        this.byAddress.remove(address);
      },
    };
  }
}
