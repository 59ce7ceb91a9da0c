// End to end, both profiles: the dashboard's session behind reverse proxies (SANDBOX_TRUST_PROXY=1), where the
// client's address is the X-Forwarded-For entry the nearest of SANDBOX_TRUST_PROXY_HOPS proxies appended, scheme and
// host are SANDBOX_PUBLIC_URL's whatever X-Forwarded-Host and -Proto say, and the clean-up of an ended session's cookie.
import { strict as assert } from 'node:assert';
import type { InvitationWithLinkJson, MeJson, SessionInfoJson } from '../support/api-json.js';
import { firstRunLink, linkToken, OWNER_EMAIL, OWNER_PASSWORD, SessionClient } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { ForwardingProxy } from '../support/forwarding-proxy.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';

const PROXIED_ORIGIN = 'https://sandbox.example.test';

/** What a TLS-terminating proxy adds to every request of the client at `ip`. */
const forwardedFrom = (ip: string) => ({ 'x-forwarded-for': ip, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sandbox.example.test' });

/** Starts a server behind `hops` proxies with the owner's password set; its public URL is PROXIED_ORIGIN. */
async function startProxied(env: Record<string, string> = {}): Promise<StartedServer> {
  const server = await startServer({ env: { SANDBOX_TRUST_PROXY: '1', SANDBOX_PUBLIC_URL: PROXIED_ORIGIN, ...env } });
  expectOk(await new SessionClient(server.httpUrl).request('POST', '/v1/password-links/accept', {
    body: { token: linkToken(firstRunLink(server)), password: OWNER_PASSWORD },
    origin: PROXIED_ORIGIN,
    headers: forwardedFrom('203.0.113.7'),
  }));
  return server;
}

/** Signs the owner in with the given headers; returns the client and the address the session list recorded. */
async function signInRecordingAddress(baseUrl: string, headers: Record<string, string>): Promise<{ client: SessionClient; ip: string | null }> {
  const client = new SessionClient(baseUrl);
  client.csrfToken = expectOk<MeJson>(await client.request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, origin: PROXIED_ORIGIN, headers }), 201).csrf_token;
  const sessions = expectOk<SessionInfoJson[]>(await client.request('GET', '/v1/me/sessions', { headers }));
  return { client, ip: sessions.find((session) => session.current)?.ip ?? null };
}

describe(`dashboard behind a reverse proxy (${testProfile()} profile)`, function () {
  this.timeout(120_000);

  it('refuses to start with SANDBOX_TRUST_PROXY=1 and no SANDBOX_PUBLIC_URL, naming it', async () => {
    await assert.rejects(startServer({ env: { SANDBOX_TRUST_PROXY: '1' } }), /server exited with 2 before listening: .*SANDBOX_PUBLIC_URL: is required with SANDBOX_TRUST_PROXY=1/s);
  });

  describe('one proxy (SANDBOX_TRUST_PROXY_HOPS=1, the default)', function () {
    let server: StartedServer;

    before(async () => {
      server = await startProxied();
    });

    after(async () => {
      await server?.stop();
    });

    it('takes the client\'s address from the proxy and scheme and host from the public URL: a Secure cookie, its Origin, its address in the session list', async () => {
      const client = new SessionClient(server.httpUrl);
      const headers = forwardedFrom('203.0.113.7');
      const signedIn = await client.request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, origin: PROXIED_ORIGIN, headers });
      client.csrfToken = expectOk<MeJson>(signedIn, 201).csrf_token;
      const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('sbx_session='));
      assert.match(cookie ?? '', /; secure/i, 'the public URL is https, so the cookie is Secure');
      assert.match(signedIn.headers.getSetCookie().find((line) => line.startsWith('sbx_device=')) ?? '', /; secure/i, 'so is the device cookie');
      const sessions = expectOk<SessionInfoJson[]>(await client.request('GET', '/v1/me/sessions', { headers }));
      assert.equal(sessions.find((session) => session.current)?.ip, '203.0.113.7');
      // The public origin is the one a session's changes must come from; the address the server listens on is foreign.
      expectError(await client.request('DELETE', '/v1/session', { origin: server.httpUrl, headers }), 403, 'csrf_failed');
      expectOk(await client.request('DELETE', '/v1/session', { origin: PROXIED_ORIGIN, headers }));
    });

    it('records the address a real proxy appended, not the X-Forwarded-For entry the client wrote before it', async () => {
      // The proxy connects to the server from 127.0.0.9 and appends the client's 127.0.0.1 after the forged entry.
      const proxy = await ForwardingProxy.start(server.httpUrl, { localAddress: '127.0.0.9' });
      try {
        const { client, ip } = await signInRecordingAddress(proxy.url, { 'x-forwarded-for': '6.6.6.6' });
        assert.equal(ip, '127.0.0.1', 'the client as the proxy saw it; neither the forged 6.6.6.6 nor the proxy\'s own 127.0.0.9');
        expectOk(await client.request('DELETE', '/v1/session', { origin: PROXIED_ORIGIN }));
      } finally {
        await proxy.stop();
      }
    });

    it('throttles sign-in per forwarded client address, whatever the client prepends', async () => {
      const client = new SessionClient(server.httpUrl);
      const attempt = (forwardedFor: string, n: number) => client.request('POST', '/v1/session', {
        body: { email: `nobody-${n}@example.com`, password: 'not the password' },
        origin: PROXIED_ORIGIN,
        headers: forwardedFrom(forwardedFor),
      });
      // Unknown emails, each once, so only the per-address count (20 in 15 minutes) can refuse; a fresh forged entry
      // in front of the proxy's each time must not buy a fresh count.
      for (let n = 0; n < 20; n++) expectError(await attempt(`6.6.6.${n}, 198.51.100.20`, n), 401, 'invalid_credentials');
      const refused = await attempt('6.6.6.200, 198.51.100.20', 20);
      expectError(refused, 429, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After in whole seconds');
      expectError(await attempt('198.51.100.20, 198.51.100.21', 21), 401, 'invalid_credentials');
    });

    it('hands out links, Secure cookies and the CSRF origin of the public URL whatever X-Forwarded-Host and -Proto say', async () => {
      const proxy = await ForwardingProxy.start(server.httpUrl);
      try {
        const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
        const client = new SessionClient(proxy.url);
        const signedIn = await client.request('POST', '/v1/session', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, origin: PROXIED_ORIGIN, headers: forged });
        client.csrfToken = expectOk<MeJson>(signedIn, 201).csrf_token;
        assert.match(signedIn.headers.getSetCookie().find((line) => line.startsWith('sbx_session=')) ?? '', /; secure/i, 'X-Forwarded-Proto: http does not drop Secure');
        const invitation = expectOk<InvitationWithLinkJson>(await client.request('POST', '/v1/invitations', {
          body: { email: 'invited-behind-proxy@example.com', role: 'member' },
          origin: PROXIED_ORIGIN,
          headers: forged,
        }), 201);
        assert.ok(invitation.url.startsWith(`${PROXIED_ORIGIN}/`), `the link names the public URL: ${invitation.url}`);
        // The origin a forged host and scheme would make expected is foreign; the public one still works.
        expectError(await client.request('DELETE', '/v1/session', { origin: 'http://evil.example', headers: forged }), 403, 'csrf_failed');
        expectOk(await client.request('DELETE', '/v1/session', { origin: PROXIED_ORIGIN, headers: forged }));
      } finally {
        await proxy.stop();
      }
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

  describe('two proxies (SANDBOX_TRUST_PROXY_HOPS=2)', function () {
    let server: StartedServer;
    const proxies: ForwardingProxy[] = [];

    before(async () => {
      server = await startProxied({ SANDBOX_TRUST_PROXY_HOPS: '2' });
    });

    after(async () => {
      for (const proxy of proxies) await proxy.stop();
      await server?.stop();
    });

    it('takes the address the outer proxy appended: not the client\'s forged entry, not the inner proxy\'s', async () => {
      // client → outer (appends 127.0.0.1, connects on from 127.0.0.8) → inner (appends 127.0.0.8, connects from 127.0.0.9) → server
      const inner = await ForwardingProxy.start(server.httpUrl, { localAddress: '127.0.0.9' });
      proxies.push(inner);
      const outer = await ForwardingProxy.start(inner.url, { localAddress: '127.0.0.8' });
      proxies.push(outer);
      const { ip } = await signInRecordingAddress(outer.url, { 'x-forwarded-for': '6.6.6.6' });
      assert.equal(ip, '127.0.0.1');
    });

    it('reads the entry second from the right of what arrives, however many the client prepended', async () => {
      const { ip } = await signInRecordingAddress(server.httpUrl, { 'x-forwarded-for': '6.6.6.6, 6.6.6.7, 203.0.113.50, 10.0.0.2' });
      assert.equal(ip, '203.0.113.50');
    });
  });
});
