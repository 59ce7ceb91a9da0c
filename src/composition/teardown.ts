// The undo steps of what the application has started, run in the reverse of the order it started them.

/** A step of shutdown that both the orderly path and the clean-up after a failed start may ask for: it runs once. */
function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= step());
}

export class Teardown {
  private readonly steps: (() => Promise<void>)[] = [];

  /**
   * Registers the undo step of something just started. The step is returned wrapped to run once, so shutdown may run
   * it early, in the order it needs, and the reverse sweep then finds it done.
   */
  add(step: () => Promise<void>): () => Promise<void> {
    const undo = once(step);
    this.steps.push(undo);
    return undo;
  }

  /** Runs every step not yet run, latest first: workers before the pool and storage they use. */
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) await step();
  }
}
