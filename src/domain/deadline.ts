// Bounding a wait for work that cannot be cancelled: the caller stops waiting at the deadline, the work itself goes on.

/** Settles as `work` does, or rejects with `overdue()` once `ms` have passed first. */
export async function within<T>(work: Promise<T>, ms: number, overdue: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(overdue()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
