// Counts what each workspace holds open on this node (waits, event streams) and refuses one more past its cap.
import { AppError } from '../errors.js';

export class OpenPerWorkspace {
  private readonly open = new Map<string, number>();

  /** `refusal`: the error past the cap, given the cap. */
  constructor(private readonly limit: number, private readonly refusal: (limit: number) => AppError) {}

  /** Takes one of the workspace's places, or throws the refusal; the function returned gives it back, once. */
  take(workspaceId: string): () => void {
    const held = this.open.get(workspaceId) ?? 0;
    if (held >= this.limit) throw this.refusal(this.limit);
    this.open.set(workspaceId, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.open.get(workspaceId) ?? 1) - 1;
      if (left === 0) this.open.delete(workspaceId);
      else this.open.set(workspaceId, left);
    };
  }
}
