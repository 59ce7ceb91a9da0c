// End to end, both profiles: sign-in throttling that a crowd cannot use against the owner, and whose state strangers
// cannot grow. Sixty addresses guessing one account get at most ten guesses a minute checked, and the owner's browser
// still gets in with its device cookie; sign-ins with made-up emails past an address's limit make no state at all,
// and link guesses from thousands of addresses, each making some, stay within SANDBOX_RATE_LIMIT_MEMORY_MB.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACCOUNT_CROWD_ATTEMPTS } from '../../src/services/accounts/sign-in-throttle.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { admin, createWorkspace } from '../support/admin.js';
import { linkToken, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { requestFrom } from '../support/from-address.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

const EMAIL = 'owner@crowd.test';
const PASSWORD = 'the owner password 1';
const MB = 1024 * 1024;

describe(`sign-in throttling against crowds and made-up emails (${testProfile()} profile)`, function () {
  this.timeout(300_000);
  let server: StartedServer;
  let workspaceId: string;
  /** The owner's browser, with its device cookie once it has signed in. */
  let owner: SessionClient;

  before(async () => {
    server = await startServer({ env: { SANDBOX_RATE_LIMIT_MEMORY_MB: '1', SANDBOX_REFUSAL_PAUSE_MS: '1' } });
    workspaceId = createWorkspace(server.dataDir, 'Crowd').workspace.id;
    const added = admin<{ set_password_url: string }>(server.dataDir, ['member', 'add', '--workspace', workspaceId, '--email', EMAIL, '--role', 'owner']);
    expectOk(await new SessionClient(server.httpUrl).request('POST', '/v1/password-links/accept', { body: { token: linkToken(added.set_password_url), password: PASSWORD } }));
  });

  after(async () => {
    await server?.stop();
  });

  /** One request from `address` on a connection of its own, closed after it, as thousands of strangers' would be. */
  const post = (address: string, path: string, body: unknown, cookie?: string) =>
    requestFrom(address, `${server.httpUrl}${path}`, 'POST', { body, headers: { origin: new URL(server.httpUrl).origin, connection: 'close', ...(cookie ? { cookie } : {}) } });

  /** Runs the requests `concurrency` at a time, in order. */
  async function inBatches<T>(count: number, concurrency: number, request: (i: number) => Promise<T>): Promise<T[]> {
    const answers: T[] = [];
    for (let start = 0; start < count; start += concurrency) {
      answers.push(...await Promise.all(Array.from({ length: Math.min(concurrency, count - start) }, (_, i) => request(start + i))));
    }
    return answers;
  }

  const stateBytes = async (figure: 'used' | 'limit'): Promise<number> =>
    sampleValue(parseExposition((await new ApiClient(server.httpUrl, null).get('/metrics')).bytes.toString()), 'mail_sandbox_rate_limit_state_bytes', { figure });

  it('checks at most 10 guesses a minute for one account from 60 addresses; its owner gets in with the device cookie', async () => {
    // The owner signs in once from their browser: the answer sets the device cookie.
    owner = new SessionClient(server.httpUrl);
    const first = await owner.signIn(EMAIL, PASSWORD, workspaceId);
    expectOk(first, 201);
    const setCookie = first.headers.getSetCookie().find((line) => line.startsWith('sbx_device='));
    assert.ok(setCookie && owner.deviceCookie, 'no device cookie');
    assert.match(setCookie, /; path=\/v1\/session;/i);
    assert.match(setCookie, /httponly/i);
    assert.match(setCookie, /samesite=strict/i);
    assert.doesNotMatch(setCookie, /crowd\.test/, 'the cookie holds no email');

    const guesses = await Promise.all(Array.from({ length: 60 }, (_, address) => Array.from({ length: 5 }, (_, guess) =>
      post(`127.0.1.${address + 1}`, '/v1/session', { email: EMAIL, password: `guess ${address}-${guess}` }))).flat());
    const checked = guesses.filter((response) => response.status === 401);
    for (const response of checked) expectError(response, 401, 'invalid_credentials');
    for (const response of guesses.filter((one) => one.status !== 401)) expectError(response, 429, 'rate_limited');
    assert.ok(checked.length >= 1 && checked.length <= ACCOUNT_CROWD_ATTEMPTS, `${checked.length} of 300 guesses were checked`);

    // Under load the burst can outlast the crowd's minute, or lose guesses to other limits before they reach the
    // crowd: wrong guesses from fresh addresses fill it again until it refuses with a window to spare.
    const topUps = 2 * (ACCOUNT_CROWD_ATTEMPTS + 1);
    let crowdRefusal: ApiResponse | undefined;
    for (let guess = 0; guess < topUps && !crowdRefusal; guess += 1) {
      const answer = await post(`127.0.4.${guess + 1}`, '/v1/session', { email: EMAIL, password: `top-up guess ${guess}` });
      if (answer.status === 401) continue;
      expectError(answer, 429, 'rate_limited');
      const seconds = Number(answer.headers.get('retry-after'));
      if (seconds >= 10) crowdRefusal = answer;
      else await sleep((seconds + 1) * 1000);
    }
    assert.ok(crowdRefusal, `the crowd limit refused none of ${topUps} more guesses with time left in its window`);
    assert.match(expectError(crowdRefusal, 429, 'rate_limited'), /sign in from a browser you have signed in to it from before/);

    // The right password from a browser the account does not know waits with the crowd...
    const stranger = await post('127.0.2.1', '/v1/session', { email: EMAIL, password: PASSWORD });
    assert.match(expectError(stranger, 429, 'rate_limited'), /sign in from a browser you have signed in to it from before/);
    assert.ok(Number(stranger.headers.get('retry-after')) <= 60);
    // ...while the owner's browser gets in, even from one of the crowd's addresses, and its cookie is renewed.
    const fromCrowd = await post('127.0.1.1', '/v1/session', { email: EMAIL, password: PASSWORD, workspace_id: workspaceId }, owner.deviceCookie!);
    expectOk(fromCrowd, 201);
    assert.ok(fromCrowd.headers.getSetCookie().some((line) => line.startsWith('sbx_device=')));
    expectOk(await owner.signIn(EMAIL, PASSWORD, workspaceId), 201);
    // A device cookie is the owner's, not the crowd's: wrong passwords with it count under its own small limit.
    let withCookie = 0;
    for (let i = 0; i < 8; i += 1) if ((await post('127.0.2.2', '/v1/session', { email: EMAIL, password: `cookie guess ${i}` }, owner.deviceCookie!)).status === 401) withCookie += 1;
    assert.equal(withCookie, 5);
  });

  it('keeps the throttle state made-up emails and strangers\' addresses make within SANDBOX_RATE_LIMIT_MEMORY_MB', async () => {
    assert.equal(await stateBytes('limit'), MB);
    // The reviewed attack: sign-ins with a new made-up email each, from a few addresses, far past their limits.
    let made = 0;
    const madeUp = (address: string) => post(address, '/v1/session', { email: `made-up-${made++}@nowhere.test`, password: 'not the password' });
    await Promise.all([1, 2, 3, 4].map(async (host) => {
      let checked = 0;
      for (let answer = await madeUp(`127.0.3.${host}`); answer.status === 401; answer = await madeUp(`127.0.3.${host}`)) checked += 1;
      assert.equal(checked, 20, 'each address has 20 wrong attempts checked, then no more');
    }));
    const afterFirst = await stateBytes('used');
    const secondRound = await inBatches(2000, 100, (i) => madeUp(`127.0.3.${(i % 4) + 1}`));
    for (const response of secondRound) expectError(response, 429, 'rate_limited');
    const afterSecond = await stateBytes('used');
    assert.ok(afterSecond <= afterFirst, `2,000 more made-up emails grew the state from ${afterFirst} to ${afterSecond} bytes`);

    // Link guesses from 5,000 addresses, each keeping a count: the state fills its bound and stays within it.
    const guesses = await inBatches(5000, 100, (i) => post(`127.0.${10 + Math.floor(i / 250)}.${(i % 250) + 1}`, '/v1/invitations/lookup', { token: randomBytes(32).toString('base64url') }));
    for (const response of guesses) expectError(response, 400, 'invalid_link');
    const filled = await stateBytes('used');
    assert.ok(filled <= MB && filled > MB / 2, `${filled} bytes`);

    // Whatever the bound made it forget, the owner's browser still gets in.
    expectOk(await owner.signIn(EMAIL, PASSWORD, workspaceId), 201);
  });
});
