// SignInThrottle on the embedded limiter: reserve before checking, a per-address limit that makes no state for
// made-up emails once reached, an account-wide limit on the crowd of unknown browsers whatever their addresses, known
// browsers under a limit of their own, and right answers given back.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { ACCOUNT_CROWD_ATTEMPTS, DEVICE_ATTEMPTS, SignInThrottle } from '../../src/services/accounts/sign-in-throttle.js';
import { MemoryRateLimiter } from '../../src/storage/embedded/memory-rate-limiter.js';

const wrong = async () => false;
const right = async () => true;
const limiter = () => new MemoryRateLimiter({ limitBytes: 8 * 1024 * 1024 });

async function outcome(promise: Promise<boolean>): Promise<string> {
  try {
    return (await promise) ? 'right' : 'wrong';
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('SignInThrottle', () => {
  it('checks at most 5 of 100 concurrent wrong passwords for one account from one address', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    let checks = 0;
    const check = async () => {
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return false;
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, check))));
    assert.equal(checks, 5);
    assert.equal(answers.filter((answer) => answer === 'wrong').length, 5);
    assert.equal(answers.filter((answer) => answer === 'rate_limited').length, 95);
    for (let i = 0; i < 10; i += 1) await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, check));
    assert.equal(checks, 5, 'sequential guesses from the same address stop at 5 in all');
    assert.equal(await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.1' }, right)), 'rate_limited', 'locked for that address, right password or not');
    assert.equal(await outcome(throttle.attempt({ account: 'owner@example.test', ip: '10.0.0.2' }, right)), 'right', 'the owner elsewhere is not locked out');
  });

  it('counts an IPv6 client by its /64, so one host cannot take a fresh address limit per address it holds', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    const answers = [];
    for (let i = 0; i < 25; i += 1) answers.push(await outcome(throttle.attempt({ ip: `2001:db8:0:1::${(i + 1).toString(16)}` }, wrong)));
    assert.equal(answers.filter((answer) => answer === 'wrong').length, 20, 'twenty link guesses for the whole /64');
    assert.equal(answers.filter((answer) => answer === 'rate_limited').length, 5);
    assert.equal(await outcome(throttle.attempt({ ip: '2001:db8:0:2::1' }, right)), 'right', 'another /64 is another client');
  });

  it('checks at most 10 wrong passwords a minute for one account from any number of addresses', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    let checks = 0;
    const check = async () => {
      checks += 1;
      return false;
    };
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => outcome(throttle.attempt({ account: 'target@example.test', ip: `10.1.${i >> 8}.${i & 255}` }, check))));
    assert.equal(checks, ACCOUNT_CROWD_ATTEMPTS);
    assert.equal(answers.filter((answer) => answer === 'rate_limited').length, 300 - ACCOUNT_CROWD_ATTEMPTS);
    assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.2.0.1' }, right)), 'rate_limited', 'an unknown browser waits too, the owner\'s included');
    assert.equal(await outcome(throttle.attempt({ account: 'other@example.test', ip: '10.2.0.1' }, right)), 'right', 'other accounts are untouched');
  });

  it('lets a known browser past the crowd, under 5 wrong passwords of its own', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    for (let i = 0; i < 50; i += 1) await outcome(throttle.attempt({ account: 'target@example.test', ip: `10.3.0.${i}` }, wrong));
    // The address is one of the crowd's, and past its own limit too.
    for (let i = 0; i < 25; i += 1) await outcome(throttle.attempt({ ip: '10.3.0.1' }, wrong));
    assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.3.0.1' }, right)), 'rate_limited');
    assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.3.0.1', device: 'owner-laptop' }, right)), 'right');
    for (let i = 0; i < DEVICE_ATTEMPTS; i += 1) assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.3.0.1', device: 'stolen' }, wrong)), 'wrong');
    assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.3.0.1', device: 'stolen' }, right)), 'rate_limited', 'a device has a limit of its own');
    assert.equal(await outcome(throttle.attempt({ account: 'target@example.test', ip: '10.3.0.1', device: 'owner-laptop' }, right)), 'right', 'another device keeps its own');
  });

  it('does not hand the crowd a fresh allowance when the owner gets in', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    for (let i = 0; i < ACCOUNT_CROWD_ATTEMPTS - 1; i += 1) assert.equal(await outcome(throttle.attempt({ account: 'c@example.test', ip: `10.4.0.${i}` }, wrong)), 'wrong');
    assert.equal(await outcome(throttle.attempt({ account: 'c@example.test', ip: '10.4.1.1' }, right)), 'right');
    assert.equal(await outcome(throttle.attempt({ account: 'c@example.test', ip: '10.4.1.2' }, wrong)), 'wrong');
    assert.equal(await outcome(throttle.attempt({ account: 'c@example.test', ip: '10.4.1.3' }, wrong)), 'rate_limited');
  });

  it('counts link guesses per address, gives right ones back, and refuses past 20 wrong ones', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    for (let i = 0; i < 30; i += 1) assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, right)), 'right');
    for (let i = 0; i < 20; i += 1) assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, wrong)), 'wrong');
    assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.1' }, right)), 'rate_limited');
    assert.equal(await outcome(throttle.attempt({ ip: '10.0.3.2' }, right)), 'right');
  });

  it('makes no state for made-up emails from an address past its limit, nor for attempts given back', async () => {
    const memory = limiter();
    const throttle = new SignInThrottle(memory, 64);
    for (let i = 0; i < 20; i += 1) assert.equal(await outcome(throttle.attempt({ account: `made-up-${i}@example.test`, ip: '10.5.0.1' }, wrong)), 'wrong');
    const { bytes } = await memory.stateSize();
    for (let i = 20; i < 5000; i += 1) assert.equal(await outcome(throttle.attempt({ account: `made-up-${i}@example.test`, ip: '10.5.0.1' }, wrong)), 'rate_limited');
    assert.equal((await memory.stateSize()).bytes, bytes, 'refused attempts kept nothing');
    const busy = async (): Promise<boolean> => {
      throw new AppError('server_busy', 'too many password checks are waiting');
    };
    for (let i = 0; i < 1000; i += 1) assert.equal(await outcome(throttle.attempt({ account: `busy-${i}@example.test`, ip: '10.5.0.2' }, busy)), 'server_busy');
    assert.equal((await memory.stateSize()).bytes, bytes, 'attempts given back kept nothing');
  });

  it('gives every reservation back when the check itself fails', async () => {
    const throttle = new SignInThrottle(limiter(), 64);
    const busy = async (): Promise<boolean> => {
      throw new AppError('server_busy', 'too many password checks are waiting');
    };
    for (let i = 0; i < 30; i += 1) assert.equal(await outcome(throttle.attempt({ account: 'b@example.test', ip: '10.0.4.1' }, busy)), 'server_busy');
    assert.equal(await outcome(throttle.attempt({ account: 'b@example.test', ip: '10.0.4.1' }, right)), 'right');
  });
});
