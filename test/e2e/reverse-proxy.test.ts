// End to end, both profiles: the dashboard's session behind a reverse proxy (SANDBOX_TRUST_PROXY=1), where the
// client's address, scheme and host come from X-Forwarded-* headers, and the clean-up of an ended session's cookie.
import { strict as assert } from 'node:assert';
import type { MeJson, SessionInfoJson } from '../support/api-json.js';
import { firstRunLink, linkToken, OWNER_EMAIL, OWNER_PASSWORD, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

const PROXIED_ORIGIN = 'https://sandbox.example.test';

/** What a TLS-terminating proxy adds to every request of the client at `ip`. */
const forwardedFrom = (ip: string) => ({ 'x-forwarded-for': ip, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sandbox.example.test' });

describe(`dashboard behind a reverse proxy (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;

  before(async () => {
    server = await startServer({ env: { SANDBOX_TRUST_PROXY: '1' } });
    const anonymous = new SessionClient(server.httpUrl);
    expectOk(await anonymous.request('POST', '/v1/password-links/accept', {
      body: { token: linkToken(firstRunLink(server)), password: OWNER_PASSWORD },
      origin: PROXIED_ORIGIN,
      headers: forwardedFrom('203.0.113.7'),
    }));
  });

  after(async () => {
    await server?.stop();
  });

  it('takes the client\'s scheme, host and address from the proxy: a Secure cookie, its Origin, its address in the session list', async () => {
    const client = new SessionClient(server.httpUrl);
    const headers = forwardedFrom('203.0.113.7');
    const signedIn = await client.request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, origin: PROXIED_ORIGIN, headers });
    client.csrfToken = expectOk<MeJson>(signedIn, 201).csrf_token;
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('sbx_session='));
    assert.match(cookie ?? '', /; secure/i, 'the browser reached the proxy over https, so the cookie is Secure');
    const sessions = expectOk<SessionInfoJson[]>(await client.request('GET', '/v1/me/sessions', { headers }));
    assert.equal(sessions.find((session) => session.current)?.ip, '203.0.113.7');
    // The proxy's origin is the one a session's changes must come from; the address the server listens on is foreign.
    expectError(await client.request('DELETE', '/v1/session', { origin: server.httpUrl, headers }), 403, 'csrf_failed');
    expectOk(await client.request('DELETE', '/v1/session', { origin: PROXIED_ORIGIN, headers }));
  });

  it('throttles sign-in per forwarded client address, not per proxy', async () => {
    const client = new SessionClient(server.httpUrl);
    const attempt = (ip: string, n: number) => client.request('POST', '/v1/session', {
      body: { email: `nobody-${n}@example.com`, password: 'not the password' },
      origin: PROXIED_ORIGIN,
      headers: forwardedFrom(ip),
    });
    // Unknown emails, each once, so only the per-address count (20 in 15 minutes) can refuse.
    for (let n = 0; n < 20; n++) expectError(await attempt('198.51.100.20', n), 401, 'invalid_credentials');
    const refused = await attempt('198.51.100.20', 20);
    expectError(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After in whole seconds');
    expectError(await attempt('198.51.100.21', 21), 401, 'invalid_credentials');
  });

  it('clears the cookie of a session that has ended', async () => {
    const client = new SessionClient(server.httpUrl);
    const headers = forwardedFrom('203.0.113.9');
    client.csrfToken = expectOk<MeJson>(await client.request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, origin: PROXIED_ORIGIN, headers }), 201).csrf_token;
    const ended = client.cookie;
    expectOk(await client.request('DELETE', '/v1/session', { origin: PROXIED_ORIGIN, headers }));
    const stale = new SessionClient(server.httpUrl);
    stale.cookie = ended;
    const response = await stale.request('GET', '/v1/me', { headers });
    expectError(response, 401, 'unauthorized');
    assert.ok(response.headers.getSetCookie().some((line) => /^sbx_session=;.*expires=Thu, 01 Jan 1970/i.test(line)), `the ended session's cookie is cleared: ${response.headers.getSetCookie().join(' | ')}`);
  });
});
