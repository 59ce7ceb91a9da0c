// Measures GET /v1/messages/{id}/auth-check against a started server whose name server is a local one (the tests'
// own, answering at once): the first check after start (a content worker loads mailauth), then p50/p95 per message
// shape, checked one after another: an order mail signed with RSA 2048, the same signed with RSA and Ed25519 under a
// subdomain From (two DMARC lookups), and a 5 MB message with an attachment (the body hash dominates).
// Run: `npm run --silent bench:auth-check -- [--rounds 50]`; prints JSON.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ApiClient } from '../../test/support/api-client.js';
import { composed, ed25519Key, rsaKey, signed, type Signer } from '../../test/support/dkim.js';
import { startDnsServer } from '../../test/support/dns-server.js';
import { expectOk } from '../../test/support/envelope.js';
import { createInbox } from '../../test/support/inboxes.js';
import { startServer } from '../../test/support/server.js';
import { credentialsOf, sendRaw, storedId } from '../../test/support/smtp.js';
import { loadAverage, percentile, positiveInt, round } from './measure.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = positiveInt('--rounds', values.rounds, 50);

const rsa = rsaKey();
const ed25519 = ed25519Key();
const shopRsa: Signer = { domain: 'shop.example', selector: 'rsa2026', key: rsa };
const shopEd25519: Signer = { domain: 'shop.example', selector: 'ed2026', key: ed25519 };
const dns = await startDnsServer({}, '.blackhole.test', {
  'rsa2026._domainkey.shop.example': [rsa.record],
  'ed2026._domainkey.shop.example': [ed25519.record],
  '_dmarc.shop.example': ['v=DMARC1; p=reject'],
  'shop.example': ['v=spf1 ip4:192.0.2.0/24 -all'],
});
const server = await startServer({ env: { SANDBOX_DNS_SERVERS: dns.address } });
try {
  const api = new ApiClient(server.httpUrl, server.defaultKey);
  const inbox = await createInbox(api);
  const order = {
    from: 'Shop <orders@shop.example>', to: 'customer@example.net', subject: 'Your order 1234 has shipped',
    text: 'Hello,\n\nyour order 1234 has shipped.\n'.repeat(20),
    html: `<table>${'<tr><td><p>Your order 1234 has shipped and should arrive on Thursday.</p></td></tr>'.repeat(60)}</table>`,
  };
  const shapes = [
    { name: 'order mail, RSA 2048', raw: await signed(await composed(order), shopRsa) },
    { name: 'subdomain From, RSA + Ed25519', raw: await signed(await signed(await composed({ ...order, from: 'orders@mail.shop.example' }), shopRsa), shopEd25519) },
    { name: '5 MB with an attachment, RSA 2048', raw: await signed(await composed({ ...order, attachments: [{ filename: 'invoice.bin', content: Buffer.alloc(3_700_000, 7) }] }), shopRsa) },
  ];
  const ids = [];
  for (const shape of shapes) ids.push(storedId((await sendRaw(credentialsOf(inbox), shape.raw, { from: 'bounce@shop.example', to: ['customer@example.net'] })).response));

  const check = async (id: string) => {
    const started = performance.now();
    const report = expectOk<{ Verdict: { Result: string }; Lookups: number }>(await api.get(`/v1/messages/${id}/auth-check`));
    if (report.Verdict.Result !== 'pass') throw new Error(`the bench message ${id} did not pass: ${JSON.stringify(report)}`);
    return { ms: performance.now() - started, lookups: report.Lookups };
  };
  const first = await check(ids[0]!);
  const results = [];
  for (const [index, shape] of shapes.entries()) {
    const times: number[] = [];
    let lookups = 0;
    for (let round = 0; round < rounds; round++) {
      const outcome = await check(ids[index]!);
      times.push(outcome.ms);
      lookups = outcome.lookups;
    }
    times.sort((a, b) => a - b);
    results.push({ shape: shape.name, bytes: shape.raw.length, lookups, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) });
  }
  console.log(JSON.stringify({ bench: 'auth-check', rounds, firstCheckMs: round(first.ms), results, loadAverage: loadAverage() }, null, 2));
} finally {
  await server.stop();
  await dns.close();
}
