// People's password hashes: the encoded scrypt format, matching only the right password, and the new-password rules.
import { strict as assert } from 'node:assert';
import { assertAcceptablePassword, hashPassword, PasswordHasher, verifyPassword } from '../../src/services/accounts/passwords.js';
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
    assert.equal(await new PasswordHasher(64).verifyOrPretend('anything at all', null, '127.0.0.1'), false);
  });

  it('refuses new passwords that are short or the email', () => {
    assert.throws(() => assertAcceptablePassword('short', 'a@b.c', 'password'), (error: AppError) => error.code === 'invalid_request' && /body\.password/.test(error.message));
    assert.throws(() => assertAcceptablePassword('Person@Example.com', 'person@example.com', 'new_password'), /must not be the email/);
    assert.doesNotThrow(() => assertAcceptablePassword('long enough password', 'person@example.com', 'password'));
  });
});

describe('PasswordHasher', () => {
  it('refuses a client past its share of the checks with 429, and anyone past a full queue with 503', async function () {
    this.timeout(30_000);
    const hasher = new PasswordHasher(64);
    const hash = await hashPassword('correct horse battery');
    // Four per address, running or waiting: a fifth from the same address is refused at once.
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => hasher.verifyOrPretend('guess', hash, '10.9.0.1')));
    const refused = answers.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    assert.equal(refused.length, 1);
    assert.equal((refused[0]!.reason as AppError).code, 'rate_limited');
    // 2 running and 16 waiting fill it; the nineteenth is refused whoever asks.
    const many = await Promise.allSettled(Array.from({ length: 19 }, (_, i) => hasher.verifyOrPretend('guess', hash, `10.9.1.${i}`)));
    const busy = many.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    assert.equal(busy.length, 1);
    assert.equal((busy[0]!.reason as AppError).code, 'server_busy');
    assert.ok(many.filter((answer) => answer.status === 'fulfilled').every((answer) => (answer as PromiseFulfilledResult<boolean>).value === false));
  });
});
