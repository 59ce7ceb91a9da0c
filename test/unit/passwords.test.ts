// People's password hashes: the encoded scrypt format, matching only the right password, and the new-password rules.
import { strict as assert } from 'node:assert';
import { assertAcceptablePassword, hashPassword, verifyOrPretend, verifyPassword } from '../../src/services/passwords.js';
import { AppError } from '../../src/errors.js';

describe('passwords', () => {
  it('encodes scrypt with its parameters and a fresh salt, and matches only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    assert.notEqual(await hashPassword('correct horse battery'), hash);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
    assert.equal(await verifyPassword('', hash), false);
  });

  it('never matches a malformed or oversized stored hash', async () => {
    assert.equal(await verifyPassword('x', 'not-a-hash'), false);
    assert.equal(await verifyPassword('x', 'scrypt$32768$8$1$AAAA$AAAA'), false);
    assert.equal(await verifyPassword('x', `scrypt$${2 ** 24}$8$1$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(43)}=`), false);
  });

  it('checks a password against nothing (unknown email) and still says no', async () => {
    assert.equal(await verifyOrPretend('anything at all', null), false);
  });

  it('refuses new passwords that are short or the email', () => {
    assert.throws(() => assertAcceptablePassword('short', 'a@b.c', 'password'), (error: AppError) => error.code === 'invalid_request' && /body\.password/.test(error.message));
    assert.throws(() => assertAcceptablePassword('Person@Example.com', 'person@example.com', 'new_password'), /must not be the email/);
    assert.doesNotThrow(() => assertAcceptablePassword('long enough password', 'person@example.com', 'password'));
  });
});
