// End-to-end tests of GET /v1/messages/{id}/spam-check against the real spamd that scripts/services/up starts
// (SANDBOX_SPAMD_URL; npm test passes it to both profiles): GTUBE is spam, an ordinary message is not, a server
// without spamd answers 400 not_configured, and a spamd that is gone or too slow answers 503
// spam_engine_unavailable promptly, never a 200; a message over SANDBOX_SPAMD_MAX_BYTES answers 422 analysis_limit.
// Checking never marks a message read.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { createWorkspace } from '../support/admin.js';
import type { InboxWithCredentialsJson, SpamCheckJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { summaryOf } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw, storedId } from '../support/smtp.js';
import { Relay } from '../support/tcp-relay.js';

const GTUBE = fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/spamd/gtube.eml'));

/** The spamd the suite checks against; scripts/services/up prints it. */
function spamdUrl(): string {
  const value = process.env.SANDBOX_SPAMD_URL;
  assert.ok(value, 'SANDBOX_SPAMD_URL is not set: start spamd with eval "$(scripts/services/up spamd)" (npm test does it)');
  return value;
}

async function captureGtube(inbox: InboxWithCredentialsJson): Promise<string> {
  return storedId((await sendRaw(credentialsOf(inbox), GTUBE, { from: 'spammer@example.com', to: ['victim@example.com'] })).response);
}

async function captureOrdinary(inbox: InboxWithCredentialsJson): Promise<string> {
  const [id] = await sendMails(credentialsOf(inbox), [{
    from: 'Shop <orders@shop.example.com>',
    to: 'Customer <customer@example.net>',
    subject: 'Your order 1234 has shipped',
    text: 'Hello,\n\nyour order 1234 has shipped and should arrive on Thursday.\n\nThanks for shopping with us.\n',
    html: '<p>Hello,</p><p>your order 1234 has shipped and should arrive on Thursday.</p><p>Thanks for shopping with us.</p>',
  }]);
  return id!;
}

const spamCheck = (api: ApiClient, id: string) => api.get(`/v1/messages/${encodeURIComponent(id)}/spam-check`);

async function timed(work: Promise<ApiResponse>): Promise<{ response: ApiResponse; ms: number }> {
  const started = performance.now();
  const response = await work;
  return { response, ms: performance.now() - started };
}

describe('spam check', function () {
  this.timeout(120_000);

  describe('with spamd', () => {
    let server: StartedServer;
    let api: ApiClient;
    let inbox: InboxWithCredentialsJson;

    before(async () => {
      server = await startServer({ env: { SANDBOX_SPAMD_URL: spamdUrl() } });
      api = new ApiClient(server.httpUrl, server.defaultKey);
      inbox = await createInbox(api);
    });

    after(async () => {
      await server?.stop();
    });

    it('finds GTUBE spam, with the rule GTUBE, spamd\'s own threshold, and leaves the message unread', async () => {
      const id = await captureGtube(inbox);
      const verdict = expectOk<SpamCheckJson>(await spamCheck(api, id), 200, 'spam check of GTUBE');
      assert.equal(verdict.IsSpam, true);
      assert.ok(verdict.Score >= 1000, `GTUBE alone scores 1000, got ${verdict.Score}`);
      assert.equal(verdict.RequiredScore, 5);
      const gtube = verdict.Rules.find((rule) => rule.Name === 'GTUBE');
      assert.deepEqual(gtube, { Name: 'GTUBE', Score: 1000, Description: 'BODY: Generic Test for Unsolicited Bulk Email' });
      assert.equal((await summaryOf(api, inbox.id, id)).read, false, 'checking a message does not mark it read');
    });

    it('passes an ordinary message, and answers the same on every check', async () => {
      const id = await captureOrdinary(inbox);
      const first = expectOk<SpamCheckJson>(await spamCheck(api, id), 200, 'spam check of an ordinary message');
      assert.equal(first.IsSpam, false);
      assert.ok(first.Score < first.RequiredScore, `score ${first.Score} is below ${first.RequiredScore}`);
      assert.ok(!first.Rules.some((rule) => rule.Name === 'GTUBE'));
      assert.deepEqual(expectOk<SpamCheckJson>(await spamCheck(api, id), 200, 'second check'), first);
      assert.equal((await summaryOf(api, inbox.id, id)).read, false);
    });

    it('answers 404 for an unknown message and for another workspace\'s', async () => {
      expectError(await spamCheck(api, 'msg_00000000000000000000000000'), 404, 'not_found');
      const other = createWorkspace(server.dataDir, `spam-other-${process.pid}`);
      const otherId = await captureGtube(await createInbox(api.withKey(other.key.key)));
      expectError(await spamCheck(api, otherId), 404, 'not_found', 'another workspace\'s message');
      expectOk(await spamCheck(api.withKey(other.key.key), otherId), 200, 'its own workspace checks it');
    });
  });

  it('answers 400 not_configured on a server without spamd', async () => {
    const server = await startServer({ env: { SANDBOX_SPAMD_URL: '' } });
    try {
      const api = new ApiClient(server.httpUrl, server.defaultKey);
      const id = await captureGtube(await createInbox(api));
      const message = expectError(await spamCheck(api, id), 400, 'not_configured');
      assert.match(message, /SANDBOX_SPAMD_URL/);
    } finally {
      await server.stop();
    }
  });

  describe('through a relay to spamd, with tight limits', () => {
    let relay: Relay;
    /** Accepts connections and never answers, like a spamd whose children are all stuck. */
    let stalled: net.Server;
    const stalledSockets = new Set<net.Socket>();
    let server: StartedServer;
    let api: ApiClient;
    let inbox: InboxWithCredentialsJson;
    const TIMEOUT_MS = 3000;
    const MAX_BYTES = 64 * 1024;

    before(async () => {
      relay = new Relay(`http://${spamdUrl()}`);
      await relay.open();
      stalled = net.createServer((socket) => {
        stalledSockets.add(socket);
        socket.on('close', () => stalledSockets.delete(socket));
      });
      await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
      server = await startServer({ env: { SANDBOX_SPAMD_URL: `127.0.0.1:${relay.port}`, SANDBOX_SPAMD_TIMEOUT_MS: String(TIMEOUT_MS), SANDBOX_SPAMD_MAX_BYTES: String(MAX_BYTES) } });
      api = new ApiClient(server.httpUrl, server.defaultKey);
      inbox = await createInbox(api);
    });

    after(async () => {
      await server?.stop();
      await relay?.cut();
      for (const socket of stalledSockets) socket.destroy();
      await new Promise((resolve) => stalled?.close(resolve));
    });

    it('answers 503 spam_engine_unavailable at once while spamd is stopped, and checks again once it is back', async () => {
      const id = await captureGtube(inbox);
      expectOk(await spamCheck(api, id), 200, 'through the relay, before the cut');
      await relay.cut();
      const { response, ms } = await timed(spamCheck(api, id));
      assert.match(expectError(response, 503, 'spam_engine_unavailable', 'spamd stopped'), /could not be reached/);
      assert.ok(ms < TIMEOUT_MS - 1000, `a refused connection answers at once, not at the time limit: took ${Math.round(ms)} ms`);
      await relay.open();
      assert.equal(expectOk<SpamCheckJson>(await spamCheck(api, id), 200, 'after spamd is back').IsSpam, true);
      assert.equal((await summaryOf(api, inbox.id, id)).read, false);
    });

    it('answers 422 analysis_limit for a message larger than SANDBOX_SPAMD_MAX_BYTES, without asking spamd', async () => {
      const [id] = await sendMails(credentialsOf(inbox), [{
        from: 'app@example.com', to: 'user@example.com', subject: 'with a large attachment', text: 'see attached',
        attachments: [{ filename: 'data.bin', content: Buffer.alloc(MAX_BYTES, 7) }],
      }]);
      const relayed = relay.upstreams.length;
      const message = expectError(await spamCheck(api, id!), 422, 'analysis_limit');
      assert.match(message, /SANDBOX_SPAMD_MAX_BYTES/);
      assert.equal(relay.upstreams.length, relayed, 'spamd was not asked');
    });

    it('answers 503 spam_engine_unavailable once SANDBOX_SPAMD_TIMEOUT_MS has passed without an answer', async () => {
      const id = await captureOrdinary(inbox);
      relay.retarget(`http://127.0.0.1:${(stalled.address() as net.AddressInfo).port}`);
      try {
        const { response, ms } = await timed(spamCheck(api, id));
        const message = expectError(response, 503, 'spam_engine_unavailable', 'spamd never answers');
        assert.match(message, new RegExp(`did not answer within ${TIMEOUT_MS} ms`));
        assert.ok(ms >= TIMEOUT_MS - 50 && ms < TIMEOUT_MS + 2000, `gave up after ${Math.round(ms)} ms`);
      } finally {
        relay.retarget(`http://${spamdUrl()}`);
      }
    });
  });
});
