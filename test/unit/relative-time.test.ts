// The wording of a message row's received time in the dashboard: minutes within the hour, hours within today, then
// "yesterday" by the calendar (not by 24 hours), then the date, with the year only when it is not this year.
import { strict as assert } from 'node:assert';
import { relativeTime, timeWording } from '../../src/dashboard/components/inbox/relative-time.js';

describe('relativeTime (dashboard message rows)', function () {
  const wording = timeWording('en-GB');
  // Local times: the wording follows the browser's zone, so the cases do not depend on the zone the test runs in.
  const now = new Date(2026, 2, 12, 9, 30, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('words the last hour in minutes, and a clock a little ahead as now', function () {
    assert.equal(relativeTime(ago(20_000), now, wording), 'now');
    assert.equal(relativeTime(ago(-5_000), now, wording), 'now');
    assert.equal(relativeTime(ago(3 * 60_000 + 59_000), now, wording), '3 min ago');
    assert.equal(relativeTime(ago(59 * 60_000), now, wording), '59 min ago');
  });

  it('words the rest of today in hours', function () {
    assert.equal(relativeTime(ago(60 * 60_000), now, wording), '1 hr ago');
    assert.equal(relativeTime(new Date(2026, 2, 12, 0, 0, 1), now, wording), '9 hr ago');
  });

  it('says yesterday for the calendar day before, even when less than 24 hours ago', function () {
    assert.equal(relativeTime(new Date(2026, 2, 11, 23, 59), now, wording), 'yesterday');
    assert.equal(relativeTime(new Date(2026, 2, 11, 0, 0), now, wording), 'yesterday');
  });

  it('gives the date for older messages, with the year when it is not this year', function () {
    assert.equal(relativeTime(new Date(2026, 2, 10, 23, 59), now, wording), '10 Mar');
    assert.equal(relativeTime(new Date(2026, 0, 1, 8, 0), now, wording), '1 Jan');
    assert.equal(relativeTime(new Date(2025, 11, 31, 8, 0), now, wording), '31 Dec 2025');
  });

  it('words the first days of a month and a year from the calendar', function () {
    const newYear = new Date(2026, 0, 1, 0, 30);
    assert.equal(relativeTime(new Date(2025, 11, 31, 12, 0), newYear, wording), 'yesterday');
    assert.equal(relativeTime(new Date(2025, 11, 30, 12, 0), newYear, wording), '30 Dec 2025');
  });
});
