// Chaos across two service nodes on one cluster (cluster profile only): settings written through node A govern the
// very next SMTP command of a session on node B, with no cache to expire, and disarming is as immediate.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { describeCluster } from '../support/profile.js';
import { RawSmtp } from '../support/raw-smtp.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf } from '../support/smtp.js';
import type { ResponseJson } from '../support/api-json.js';

describeCluster('chaos on two nodes', () => {
  let nodeA: StartedServer;
  let nodeB: StartedServer;
  let apiA: ApiClient;
  let apiB: ApiClient;

  before(async () => {
    const dataDir = tempDataDir();
    nodeA = await startServer({ dataDir });
    nodeB = await startServer({ dataDir });
    apiA = new ApiClient(nodeA.httpUrl, nodeA.defaultKey);
    apiB = new ApiClient(nodeB.httpUrl, nodeA.defaultKey);
  });
  after(async () => {
    await nodeA?.stop();
    await nodeB?.stop();
  });

  it('settings written through node A take effect at the next command of a session on node B', async () => {
    const inbox = await createInbox(apiA);
    const put = async (body: unknown) => expectOk(await apiA.request('PUT', `/v1/inboxes/${inbox.id}/chaos`, { body }));
    const client = await RawSmtp.login({ ...credentialsOf(inbox), port: nodeB.smtpPort });
    try {
      await client.expect('MAIL FROM:<app@client.example>', 250);
      await put({ enabled: true, recipient: { probability: 100, code: 452, message: 'Armed on A' } });
      const refused = await client.command('RCPT TO:<user@customer.example>');
      assert.equal(`${refused.code} ${refused.text}`, '452 4.2.2 Armed on A');
      await put({ enabled: false });
      await client.expect('RCPT TO:<user@customer.example>', 250);
    } finally {
      await client.quit();
    }
    const report = expectOk<ResponseJson<'testInboxChaos'>['data']>(await apiB.post(`/v1/inboxes/${inbox.id}/chaos/test`));
    assert.equal(report.enabled, false, 'node B reads what node A wrote');
  });
});
