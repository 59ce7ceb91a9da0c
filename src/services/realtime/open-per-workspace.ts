// Counts what each workspace holds open on this node (waits, event streams) and refuses one more past its cap.
import type { AppError } from '../../errors.js';
import { KeyedCounts } from '../../domain/keyed-counts.js';

export class OpenPerWorkspace {
  private readonly open = new KeyedCounts();

  /** `refusal`: the error past the cap, given the cap. */
  constructor(private readonly limit: number, private readonly refusal: (limit: number) => AppError) {}

  /** Takes one of the workspace's places, or throws the refusal; the function returned gives it back, once. */
  take(workspaceId: string): () => void {
    if (this.open.of(workspaceId) >= this.limit) throw this.refusal(this.limit);
    this.open.add(workspaceId);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.open.remove(workspaceId);
    };
  }
}
