// EventBus inside one process: the embedded profile has exactly one node, so an emitter suffices.
import { EventEmitter } from 'node:events';
import type { BusEvent, EventBus } from '../ports.js';

export class InProcessBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every waiter and stream subscribes; the count is bounded by connections, not by a fixed number.
    this.emitter.setMaxListeners(0);
  }

  async publish(event: BusEvent): Promise<void> {
    this.emitter.emit('event', event);
  }

  async subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>> {
    this.emitter.on('event', handler);
    return async () => {
      this.emitter.off('event', handler);
    };
  }
}
