// The dashboard's static serving: index.html with <base href> for client routes, hashed assets cached, 404 for unknown
// assets, the CSP on every answer, and the API's and operators' paths left to the router.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { DASHBOARD_CSP, dashboardSite, withBaseHref } from '../../../src/http/dashboard-site.js';

describe('dashboard site', () => {
  let root: string;
  let server: http.Server;
  let base: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-site-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>');
    fs.writeFileSync(path.join(root, 'assets', 'app-abc123.js'), 'console.log(1);');
    fs.writeFileSync(path.join(root, 'secret.txt'), 'not served');
    const app = new Koa();
    app.use(dashboardSite({ root, basePath: '/mail' }));
    app.use((ctx) => {
      ctx.status = 200;
      ctx.body = { passed: ctx.path };
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  after(() => {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers index.html with <base href> and the security headers for client routes', async () => {
    for (const route of ['/', '/team', '/accept-invitation', '/inboxes/abc/messages/def']) {
      const response = await fetch(base + route);
      assert.equal(response.status, 200, route);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('content-security-policy'), DASHBOARD_CSP);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      const html = await response.text();
      assert.match(html, /<head>\s*<base href="\/mail\/">/);
    }
  });

  it('serves hashed assets for a year and 404s unknown or escaping ones', async () => {
    const asset = await fetch(`${base}/assets/app-abc123.js`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await asset.text(), 'console.log(1);');
    for (const missing of ['/assets/nope.js', '/assets/', '/assets/..%2Fsecret.txt', '/assets/%2E%2E%2Fsecret.txt', '/assets/sub/app-abc123.js']) {
      const response = await fetch(base + missing);
      assert.equal(response.status, 404, missing);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(response.headers.get('content-security-policy'), DASHBOARD_CSP);
    }
  });

  it('leaves /v1, /livez, /readyz, /metrics and non-GET requests to the next middleware', async () => {
    for (const route of ['/v1', '/v1/me', '/livez', '/readyz', '/metrics']) {
      const response = await fetch(base + route);
      assert.deepEqual(await response.json(), { passed: route });
      assert.equal(response.headers.get('content-security-policy'), null);
    }
    const post = await fetch(`${base}/team`, { method: 'POST' });
    assert.deepEqual(await post.json(), { passed: '/team' });
  });

  it('writes the base href for the root path and escapes it', () => {
    assert.match(withBaseHref('<html><head></head></html>', ''), /<base href="\/">/);
    assert.match(withBaseHref('<html><head></head></html>', '/a"b/'), /<base href="\/a&quot;b\/">/);
  });
});
