// How long ago a message arrived, as a list row words it ("now", "3 min. ago", "2 hr. ago", "yesterday", "12 Mar" or
// "12 Mar 2024"), and the exact time its hover shows. Pure and in the browser's language and zone, so it is tested
// without a DOM.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface TimeWording {
  relative: Intl.RelativeTimeFormat;
  dayInYear: Intl.DateTimeFormat;
  dayWithYear: Intl.DateTimeFormat;
  /** The exact time, with its zone, for the hover. */
  exact: Intl.DateTimeFormat;
}

/** The formats for a locale (undefined: the browser's), made once per list: making an Intl format is not cheap. */
export function timeWording(locale?: string): TimeWording {
  return {
    relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' }),
    dayInYear: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }),
    dayWithYear: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }),
    exact: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long' }),
  };
}

/** The age of `at` seen from `now`: minutes within the hour, hours within today, then yesterday, then the date. */
export function relativeTime(at: Date, now: Date, wording: TimeWording): string {
  const age = now.getTime() - at.getTime();
  // A sender's clock a little ahead of this one reads as now, not as "in 1 min.".
  if (age < MINUTE) return wording.relative.format(0, 'second');
  if (age < HOUR) return wording.relative.format(-Math.floor(age / MINUTE), 'minute');
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (at >= today) return wording.relative.format(-Math.floor(age / HOUR), 'hour');
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (at >= yesterday) return wording.relative.format(-1, 'day');
  return (at.getFullYear() === now.getFullYear() ? wording.dayInYear : wording.dayWithYear).format(at);
}
