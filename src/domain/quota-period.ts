// The quota period is the calendar month in UTC.

/** Period key such as "2026-11". */
export const quotaPeriod = (at: Date): string => at.toISOString().slice(0, 7);

export const quotaPeriodStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
