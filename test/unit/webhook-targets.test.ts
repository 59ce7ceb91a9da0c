// Webhook target policy: every SSRF form is refused before any connection, checked against a canary listener.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressRefusal, urlRefusal } from '../../src/outbound/target-policy.js';
import { postWebhook } from '../../src/outbound/post-webhook.js';
import { testNames } from '../support/names.js';

const STRICT = { allowPrivate: false };
const names = testNames();

describe('webhook target policy', () => {
  const forbidden = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::127.0.0.1', '::7f00:1',
    '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '100::1', '2001:db8::1',
  ];
  for (const address of forbidden) {
    it(`refuses ${address}`, () => {
      assert.ok(addressRefusal(address), `${address} was allowed`);
    });
  }

  it('allows public unicast addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
      assert.equal(addressRefusal(address), null, address);
    }
  });

  it('judges odd IPv4 spellings by the address they reach', () => {
    for (const host of ['127.1', '2130706433', '0x7f000001', '017700000001', '0177.0.0.1', '0x7f.1', '[::ffff:127.0.0.1]', '[::127.0.0.1]', '[64:ff9b::127.0.0.1]']) {
      const checked = urlRefusal(`https://${host}/hook`, STRICT);
      assert.ok('refusal' in checked, `https://${host}/hook was allowed`);
    }
  });

  it('wants https, and no credentials, unless private targets are allowed for development', () => {
    assert.match((urlRefusal('http://example.com/hook', STRICT) as { refusal: string }).refusal, /https/);
    assert.ok('url' in urlRefusal('http://127.0.0.1:9/hook', { allowPrivate: true }));
    assert.ok('refusal' in urlRefusal('ftp://example.com/', { allowPrivate: true }));
    assert.ok('refusal' in urlRefusal('https://user:pw@example.com/', STRICT));
    assert.ok('refusal' in urlRefusal('not a url', STRICT));
    assert.ok('url' in urlRefusal('https://example.com/hook', STRICT));
  });

  describe('at connect time, against a canary listener on loopback', () => {
    let canary: http.Server;
    let port: number;
    let connections = 0;
    before(async () => {
      canary = http.createServer((_request, response) => response.end('ok'));
      canary.on('connection', () => connections++);
      await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
      port = (canary.address() as AddressInfo).port;
    });
    after(() => new Promise((resolve) => canary.close(resolve)));

    it('reaches nothing for any forbidden form, names included', async () => {
      const hosts = ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '017700000001', 'localhost', '[::ffff:127.0.0.1]', '[::1]'];
      for (const host of hosts) {
        for (const scheme of ['https', 'http']) {
          const outcome = await postWebhook(`${scheme}://${host}:${port}/hook`, Buffer.from('{}'), { 'Content-Type': 'application/json' }, { ...STRICT, names }, { workspaceId: 'ws_hooks' });
          assert.equal(outcome.delivered, false, `${scheme}://${host} was delivered`);
          assert.match(outcome.error ?? '', /refused/, `${scheme}://${host}: ${outcome.error}`);
        }
      }
      assert.equal(connections, 0, 'no connection reached the canary');
    });

    it('reaches the canary when private targets are allowed, so the check above can fail', async () => {
      const outcome = await postWebhook(`http://localhost:${port}/hook`, Buffer.from('{}'), {}, { allowPrivate: true, names }, { workspaceId: 'ws_hooks' });
      assert.deepEqual(outcome, { delivered: true, status: 200, error: null });
      assert.ok(connections > 0);
    });
  });
});
