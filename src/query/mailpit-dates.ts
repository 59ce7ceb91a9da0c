// Reads the dates Mailpit's before: and after: take, as wall-clock times in a time zone (its `tz` parameter).
// Only the forms people type are read; anything else is null, which the search language drops as Mailpit does.

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC when the text names its offset; the time zone's own offset otherwise. */
  offsetMinutes: number | null;
}

const TIME = String.raw`(?:[t ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?`;
const ZONE = String.raw`(?: ?(z|utc|gmt|[+-]\d{2}:?\d{2}))?`;
const MONTH_NAME = String.raw`([a-z]{3,9})`;
const WEEKDAY = String.raw`(?:[a-z]{3,9} )?`;

/** 2026-11-20, 2026/11/20, 2026.11.20, each with an optional time and zone. */
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})${TIME}${ZONE}$`);
/** 11/20/2026: month first, as Mailpit reads an all-digit date with slashes. */
const MONTH_FIRST = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})${TIME}${ZONE}$`);
/** 20 nov 2026 and fri 20 nov 2026 10:00:00 +0100 (the Date header's form). */
const DAY_MONTH_NAME = new RegExp(String.raw`^${WEEKDAY}(\d{1,2})[ -]${MONTH_NAME}[ -](\d{4})${TIME}${ZONE}$`);
/** nov 20 2026 (a comma after the day is gone by now: the caller turns commas into spaces). */
const MONTH_NAME_DAY = new RegExp(String.raw`^${WEEKDAY}${MONTH_NAME} (\d{1,2}) (\d{4})${TIME}${ZONE}$`);
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const UNIX_SECONDS = /^\d{9,10}$/;
const UNIX_MILLISECONDS = /^\d{12,13}$/;

/** A month's name or its abbreviation (sept too); NaN for anything else, which isValid refuses. */
function monthOf(name: string): number {
  const index = MONTHS.findIndex((month) => month.startsWith(name));
  return index === -1 ? Number.NaN : index + 1;
}

function offsetOf(zone: string | undefined): number | null {
  if (zone === undefined) return null;
  if (zone === 'z' || zone === 'utc' || zone === 'gmt') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith('-') ? -minutes : minutes;
}

function wallClock(year: string, month: number, day: string, time: (string | undefined)[], zone: string | undefined): WallClock {
  const [hour, minute, second, fraction] = time;
  return {
    year: Number(year), month, day: Number(day),
    hour: Number(hour ?? 0), minute: Number(minute ?? 0), second: Number(second ?? 0),
    millisecond: fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
    offsetMinutes: offsetOf(zone),
  };
}

function readWallClock(text: string): WallClock | null {
  let m = YEAR_FIRST.exec(text);
  if (m) return wallClock(m[1]!, Number(m[2]), m[3]!, m.slice(4, 8), m[8]);
  m = MONTH_FIRST.exec(text);
  if (m) return wallClock(m[3]!, Number(m[1]), m[2]!, m.slice(4, 8), m[8]);
  m = DAY_MONTH_NAME.exec(text);
  if (m) return wallClock(m[3]!, monthOf(m[2]!), m[1]!, m.slice(4, 8), m[8]);
  m = MONTH_NAME_DAY.exec(text);
  if (m) return wallClock(m[3]!, monthOf(m[1]!), m[2]!, m.slice(4, 8), m[8]);
  m = COMPACT_DATE.exec(text);
  if (m) return wallClock(m[1]!, Number(m[2]), m[3]!, [], undefined);
  return null;
}

function isValid(clock: WallClock): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  return probe.getUTCFullYear() === clock.year && probe.getUTCMonth() === clock.month - 1 && probe.getUTCDate() === clock.day
    && clock.hour <= 23 && clock.minute <= 59 && clock.second <= 59
    && (clock.offsetMinutes === null || Math.abs(clock.offsetMinutes) <= 18 * 60);
}

/** The zone's name when the platform knows it (an IANA name such as Pacific/Auckland, or UTC); otherwise undefined. */
export function knownTimeZone(name: string | undefined): string | undefined {
  if (name === undefined || name.trim() === '') return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Milliseconds the zone's wall clock is ahead of UTC at the instant `at`. */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(part('year'), part('month') - 1, part('day'));
  asUtc.setUTCHours(part('hour'), part('minute'), part('second'), 0);
  return asUtc.getTime() - (at - (((at % 1000) + 1000) % 1000));
}

/**
 * The instant a before:/after: value names: a wall-clock time read in `timeZone` (UTC when undefined) unless it
 * carries its own offset, or a Unix time in seconds or milliseconds. `text` is lower case with single spaces.
 */
export function parseMailpitDate(text: string, timeZone: string | undefined): Date | null {
  if (UNIX_MILLISECONDS.test(text)) return new Date(Number(text));
  if (UNIX_SECONDS.test(text)) return new Date(Number(text) * 1000);
  const clock = readWallClock(text);
  if (!clock || !isValid(clock)) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  wall.setUTCHours(clock.hour, clock.minute, clock.second, clock.millisecond);
  const local = wall.getTime();
  if (clock.offsetMinutes !== null) return new Date(local - clock.offsetMinutes * 60_000);
  if (timeZone === undefined) return wall;
  // The offset at the guessed instant may differ from the one at the answer across a change of daylight time.
  const guess = local - zoneOffsetMs(local, timeZone);
  return new Date(local - zoneOffsetMs(guess, timeZone));
}
