// SignInThrottle on the embedded limiter: reserve before checking, one check per account at a time, slow-downs
// instead of account-wide locks, and right answers given back.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { accountDelayMs, SignInThrottle } from '../../src/services/accounts/sign-in-throttle.js';
import { MemoryRateLimiter } from '../../src/storage/embedded/memory-rate-limiter.js';

const wrong = async () => false;
const right = async () => true;

async function outcome(promise: Promise<boolean>): Promise<string> {
  try {
    return (await promise) ? 'right' : 'wrong';
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('SignInThrottle', () => {
  it('checks at most 5 of 100 concurrent wrong passwords for one account from one address', async () => {
    const throttle = new SignInThrottle(new MemoryRateLimiter(), async () => {});
    let checks = 0;
    const check = async () => {
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return false;
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, check))));
    assert.ok(checks >= 1 && checks <= 5, `${checks} checks ran`);
    assert.equal(answers.filter((answer) => answer === 'wrong').length, checks);
    assert.equal(answers.filter((answer) => answer === 'rate_limited').length, 100 - checks);
    // Sequential guesses from the same address stop at 5 in all.
    for (let i = 0; i < 10; i += 1) await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, check));
    assert.equal(checks, 5);
    assert.equal(await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, right)), 'rate_limited', 'locked for that address, right password or not');
    assert.equal(await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.2' }, right)), 'right', 'the owner elsewhere is not locked out');
  });

  it('lets concurrent right passwords for one account wait their turn instead of refusing them', async () => {
    const throttle = new SignInThrottle(new MemoryRateLimiter(), async () => {});
    let running = 0;
    let most = 0;
    const check = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return true;
    };
    const answers = await Promise.all(Array.from({ length: 4 }, () => outcome(throttle.attempt({ account: 'team@example.test', ip: '10.0.5.1' }, check))));
    assert.deepEqual(answers, ['right', 'right', 'right', 'right']);
    assert.equal(most, 1, 'one check of the account at a time');
  });

  it('slows an account down after 5 wrong passwords from anywhere, doubling up to 8 s, and forgets it on a right one', async () => {
    const waits: number[] = [];
    const throttle = new SignInThrottle(new MemoryRateLimiter(), async (ms) => {
      waits.push(ms);
    });
    for (let i = 1; i <= 10; i += 1) assert.equal(await outcome(throttle.attempt({ account: 'a@example.test', ip: `10.0.1.${i}` }, wrong)), 'wrong');
    assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000]);
    assert.equal(accountDelayMs(20), 8000);
    assert.equal(await outcome(throttle.attempt({ account: 'a@example.test', ip: '10.0.2.1' }, right)), 'right');
    waits.length = 0;
    assert.equal(await outcome(throttle.attempt({ account: 'a@example.test', ip: '10.0.2.2' }, wrong)), 'wrong');
    assert.deepEqual(waits, [], 'a right password forgot the account\'s wrong ones');
  });

  it('counts link guesses per address, gives right ones back, and refuses past 20 wrong ones', async () => {
    const throttle = new SignInThrottle(new MemoryRateLimiter(), async () => {});
    for (let i = 0; i < 30; i += 1) assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, right)), 'right');
    for (let i = 0; i < 20; i += 1) assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, wrong)), 'wrong');
    assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, right)), 'rate_limited');
    assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.2' }, right)), 'right');
  });

  it('gives every reservation back when the check itself fails', async () => {
    const throttle = new SignInThrottle(new MemoryRateLimiter(), async () => {});
    const busy = async (): Promise<boolean> => {
      throw new AppError('server_busy', 'too many password checks are waiting');
    };
    for (let i = 0; i < 10; i += 1) assert.equal(await outcome(throttle.attempt({ account: 'b@example.test', ip: '10.0.4.1' }, busy)), 'server_busy');
    assert.equal(await outcome(throttle.attempt({ account: 'b@example.test', ip: '10.0.4.1' }, right)), 'right');
  });
});
