// The API reference's serving: its pages under the dashboard's CSP with <base href>, its files by hashed name only
// (cached for good, the right types, nothing else of node_modules reachable), the contracts with `servers` naming the
// server, and every other path left to the next middleware.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import Koa from 'koa';
import { parse as parseYaml } from 'yaml';
import { apiReferenceSite } from '../../../src/http/api-reference-site.js';
import { DASHBOARD_CSP } from '../../../src/http/dashboard-site.js';

async function serve(options: Parameters<typeof apiReferenceSite>[0]): Promise<{ base: string; close: () => void }> {
  const app = new Koa();
  app.use(apiReferenceSite(options));
  app.use((ctx) => {
    ctx.body = { passed: ctx.path };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

describe('API reference site', () => {
  let site: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    site = await serve({ basePath: '/mail', publicBaseUrl: null });
  });

  after(() => site.close());

  it('answers both pages with <base href>, the dashboard CSP and their files by hashed name', async () => {
    for (const [page, contract] of [['/docs/api', 'openapi.yaml'], ['/docs/api/mailpit', 'mailpit-api.yaml']]) {
      const response = await fetch(site.base + page);
      assert.equal(response.status, 200, page);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('content-security-policy'), DASHBOARD_CSP);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const html = await response.text();
      assert.match(html, /<base href="\/mail\/">/);
      assert.match(html, new RegExp(`data-contract="${contract}"`));
      const files = [...html.matchAll(/(?:src|href)="(docs\/api\/assets\/[^"]+)"/g)].map((found) => found[1]!);
      assert.deepEqual(files.map((file) => /\.(\w+)$/.exec(file)![1]).sort(), ['css', 'css', 'js', 'js']);
      for (const file of files) {
        assert.match(file, /-[0-9a-f]{16}\.(js|css)$/);
        const asset = await fetch(`${site.base}/${file}`);
        assert.equal(asset.status, 200, file);
        assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.match(asset.headers.get('content-type') ?? '', file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
        assert.equal(asset.headers.get('content-security-policy'), DASHBOARD_CSP);
      }
    }
  });

  it('404s any other file under its assets, by name or by escape', async () => {
    for (const missing of ['/docs/api/assets/swagger-ui-bundle.js', '/docs/api/assets/', '/docs/api/assets/..%2F..%2Fpackage.json',
      '/docs/api/assets/swagger-ui-dist/package.json', '/docs/api/assets/swagger-ui-bundle.js.map']) {
      const response = await fetch(site.base + missing);
      assert.equal(response.status, 404, missing);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    }
  });

  it('serves the contracts with servers naming the origin reached and the base path', async () => {
    for (const [file, title] of [['/openapi.yaml', 'mail-sandbox HTTP API'], ['/mailpit-api.yaml', undefined]]) {
      const response = await fetch(site.base + file!);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type') ?? '', /^application\/yaml/);
      const contract = parseYaml(await response.text()) as { info: { title: string }; servers: { url: string }[]; paths: object };
      assert.deepEqual(contract.servers, [{ url: `${site.base}/mail` }]);
      if (title) assert.equal(contract.info.title, title);
      assert.ok(Object.keys(contract.paths).length > 10);
    }
  });

  it('names SANDBOX_PUBLIC_URL in servers when it is set', async () => {
    const proxied = await serve({ basePath: '/mail', publicBaseUrl: 'https://mail.example.com/mail' });
    try {
      const contract = parseYaml(await (await fetch(`${proxied.base}/openapi.yaml`)).text()) as { servers: { url: string }[] };
      assert.deepEqual(contract.servers, [{ url: 'https://mail.example.com/mail' }]);
    } finally {
      proxied.close();
    }
  });

  it('leaves every other path and method to the next middleware', async () => {
    for (const route of ['/', '/docs', '/docs/apis', '/v1/inboxes', '/inboxes']) {
      assert.deepEqual(await (await fetch(site.base + route)).json(), { passed: route }, route);
    }
    assert.deepEqual(await (await fetch(`${site.base}/openapi.yaml`, { method: 'POST' })).json(), { passed: '/openapi.yaml' });
  });
});
