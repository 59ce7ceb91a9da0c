// DeviceTokens: a token is earned per account, names the password it was earned with, expires, cannot be forged or
// moved to another account, and one cookie keeps a few accounts' tokens.
import { strict as assert } from 'node:assert';
import { DEVICE_TOKEN_DAYS, DeviceTokens } from '../../src/services/accounts/device-tokens.js';

const PASSWORD_SET = new Date('2030-01-01T00:00:00Z');

describe('DeviceTokens', () => {
  let now: Date;
  const tokens = new DeviceTokens(async () => 'server secret', () => now);
  beforeEach(() => {
    now = new Date('2030-02-01T00:00:00Z');
  });

  it('recognises the token it issued for the account, and no other account\'s', async () => {
    const cookie = await tokens.issue(null, 'owner@example.test', PASSWORD_SET);
    const id = await tokens.recognise(cookie, 'owner@example.test', PASSWORD_SET);
    assert.match(id ?? '', /^[A-Za-z0-9_-]{22}$/);
    assert.equal(await tokens.recognise(cookie, 'someone@example.test', PASSWORD_SET), null);
    assert.doesNotMatch(cookie, /owner|example/, 'the cookie holds no email');
  });

  it('is worthless after a new password, past its lifetime, or with another server secret', async () => {
    const cookie = await tokens.issue(null, 'owner@example.test', PASSWORD_SET);
    assert.equal(await tokens.recognise(cookie, 'owner@example.test', new Date(PASSWORD_SET.getTime() + 1)), null);
    assert.equal(await new DeviceTokens(async () => 'another secret', () => now).recognise(cookie, 'owner@example.test', PASSWORD_SET), null);
    now = new Date(now.getTime() + DEVICE_TOKEN_DAYS * 86_400_000 + 1);
    assert.equal(await tokens.recognise(cookie, 'owner@example.test', PASSWORD_SET), null);
  });

  it('refuses forged, altered and oversized cookies', async () => {
    const cookie = await tokens.issue(null, 'owner@example.test', PASSWORD_SET);
    const [issued, id, mac] = cookie.split('.') as [string, string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [`${issued}.${id}.${flipped}`, `${(parseInt(issued, 36) + 1).toString(36)}.${id}.${mac}`, 'garbage', '', `${cookie}~${'x'.repeat(600)}`]) {
      assert.equal(await tokens.recognise(forged, 'owner@example.test', PASSWORD_SET), null, forged.slice(0, 60));
    }
  });

  it('keeps the newest tokens of five accounts in one cookie, replacing an account\'s own', async () => {
    let cookie: string | null = null;
    for (let i = 0; i < 7; i += 1) {
      now = new Date(now.getTime() + 1000);
      cookie = await tokens.issue(cookie, `person-${i}@example.test`, PASSWORD_SET);
    }
    const known = await Promise.all(Array.from({ length: 7 }, (_, i) => tokens.recognise(cookie, `person-${i}@example.test`, PASSWORD_SET)));
    assert.deepEqual(known.map((id) => id !== null), [false, false, true, true, true, true, true]);
    const renewed = await tokens.issue(cookie, 'person-4@example.test', PASSWORD_SET);
    assert.equal(renewed.split('~').length, 5);
    assert.notEqual(await tokens.recognise(renewed, 'person-4@example.test', PASSWORD_SET), known[4], 'a new token replaced the old one');
    assert.ok(await tokens.recognise(renewed, 'person-6@example.test', PASSWORD_SET));
  });
});
