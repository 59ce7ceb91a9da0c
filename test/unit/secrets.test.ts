// Keys and passwords: format, entropy and constant-time matching against the stored hash.
import { strict as assert } from 'node:assert';
import { API_KEY_PREFIX, hashSecret, newApiKey, newSmtpPassword, newSmtpUsername, secretMatches } from '../../src/domain/secrets.js';

describe('secrets', () => {
  it('API keys carry the prefix and at least 32 random bytes', () => {
    const key = newApiKey();
    assert.ok(key.startsWith(API_KEY_PREFIX));
    assert.ok(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url').length >= 32);
    assert.notEqual(newApiKey(), key);
  });

  it('stores only a SHA-256 hash and matches only the right secret', () => {
    const password = newSmtpPassword();
    const hash = hashSecret(password);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.ok(!hash.includes(password));
    assert.ok(secretMatches(password, hash));
    assert.ok(!secretMatches(`${password}x`, hash));
    assert.ok(!secretMatches('', hash));
    assert.ok(!secretMatches(password, 'not-a-hash'));
  });

  it('SMTP usernames are shell- and client-safe', () => {
    const names = new Set(Array.from({ length: 200 }, newSmtpUsername));
    assert.equal(names.size, 200);
    for (const name of names) assert.match(name, /^sbx-[a-z0-9]{16}$/);
  });
});
