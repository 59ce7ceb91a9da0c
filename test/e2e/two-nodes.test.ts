// Two service nodes on one set of services (cluster profile only): what one captures the other reads, searches
// and deletes at once, and limits hold across both. The embedded profile is one process by design, so this suite
// exists only in cluster runs.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import { createWorkspace } from '../support/admin.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { describeCluster } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';
import type { BatchResultJson, InboxWithCredentialsJson } from '../support/api-json.js';

const PLANS = JSON.stringify({ three: { monthly_limit: 3 }, one_inbox: { inbox_limit: 1 } });

describeCluster('two nodes on one cluster', () => {
  let nodeA: StartedServer;
  let nodeB: StartedServer;
  let apiA: ApiClient;
  let apiB: ApiClient;
  let inbox: InboxWithCredentialsJson;
  const onNode = (node: StartedServer): SmtpCredentials => ({ ...credentialsOf(inbox), port: node.smtpPort });

  before(async () => {
    const dataDir = tempDataDir();
    // One data dir maps to one namespace: both nodes share every index, bucket and Redis key.
    nodeA = await startServer({ dataDir, env: { SANDBOX_PLANS: PLANS } });
    nodeB = await startServer({ dataDir, env: { SANDBOX_PLANS: PLANS } });
    assert.ok(nodeA.defaultKey, 'the first node creates the default workspace');
    assert.equal(nodeB.defaultKey, null, 'the second node finds it and creates none');
    apiA = new ApiClient(nodeA.httpUrl, nodeA.defaultKey);
    apiB = new ApiClient(nodeB.httpUrl, nodeA.defaultKey);
    inbox = await createInbox(apiA);
  });
  after(async () => {
    await nodeA?.stop();
    await nodeB?.stop();
  });

  it('lists, searches and shows on node B what node A just captured, without waiting', async () => {
    const subjects = Array.from({ length: 5 }, (_, i) => `two-node capture ${i} ${uniqueName('s')}`);
    const ids = await sendMails(onNode(nodeA), subjects.map((subject) => ({ from: 'a@two.test', to: 'b@two.test', subject, text: `body of ${subject}` })));
    const listed = await listMessages(apiB, inbox.id);
    assert.deepEqual(listed.map((m) => m.id), [...ids].reverse(), 'node B lists every message node A answered 250 for, newest first');
    const found = await listMessages(apiB, inbox.id, `subject:"${subjects[2]}"`);
    assert.deepEqual(found.map((m) => m.id), [ids[2]]);
    const detail = await detailOf(apiB, ids[4]!);
    assert.equal(detail.subject, subjects[4]);
    assert.match(detail.text ?? '', new RegExp(`body of ${subjects[4]}`));
    const raw = await apiB.request('GET', `/v1/messages/${ids[4]}/raw`);
    assert.equal(raw.status, 200);
    assert.match(raw.bytes.toString('utf8'), new RegExp(`Subject: ${subjects[4]}`));
  });

  it('deletes and tags on node B, and node A sees it at once', async () => {
    const [first, second] = await sendMails(onNode(nodeA), [
      { from: 'a@two.test', to: 'b@two.test', subject: 'delete me on B', text: 'x' },
      { from: 'a@two.test', to: 'b@two.test', subject: 'tag me on B', text: 'y' },
    ]);
    expectOk(await apiB.delete(`/v1/messages/${first}`), 200);
    expectError(await apiA.get(`/v1/messages/${first}`), 404, 'not_found', 'deleted on B, read on A');
    const batch = expectOk<BatchResultJson>(await apiB.post('/v1/messages/batch', { ids: [second], action: 'tag', tags: ['seen-by-b'] }), 200);
    assert.equal(batch.affected, 1);
    assert.deepEqual((await detailOf(apiA, second!)).tags, ['seen-by-b']);
    assert.deepEqual((await listMessages(apiA, inbox.id, 'tag:seen-by-b')).map((m) => m.id), [second]);
  });

  it('captures on node B for reading on node A too', async () => {
    const reply = await sendRaw(onNode(nodeB), 'Subject: from node B\r\n\r\nhello\r\n', { from: 'x@two.test', to: ['y@two.test'] });
    const id = storedId(String(reply.response));
    assert.equal((await detailOf(apiA, id)).subject, 'from node B');
  });

  it('counts one monthly allowance across both nodes', async () => {
    const { key } = createWorkspace(nodeA.dataDir, uniqueName('three'), 'three', { SANDBOX_PLANS: PLANS }).key;
    const limited = await createInbox(new ApiClient(nodeA.httpUrl, key));
    const nodes = [nodeA, nodeB, nodeA, nodeB, nodeA, nodeB];
    const outcomes = await Promise.allSettled(nodes.map((node, i) =>
      sendRaw({ ...credentialsOf(limited), port: node.smtpPort }, `Subject: quota ${i}\r\n\r\nx\r\n`, { from: 'q@two.test', to: ['r@two.test'] })));
    const stored = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    assert.equal(stored.length, 3, `exactly the allowance of 3 is stored: ${outcomes.map((o) => (o.status === 'fulfilled' ? o.value.response : String(o.reason))).join(' | ')}`);
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.match(String(outcome.reason), /552/);
    assert.equal((await listMessages(new ApiClient(nodeB.httpUrl, key), limited.id)).length, 3);
  });

  it('keeps inbox names unique and the inbox limit exact under concurrent creates on both nodes', async () => {
    const name = uniqueName('same-name');
    const [onA, onB] = await Promise.all([apiA.post('/v1/inboxes', { name }), apiB.post('/v1/inboxes', { name })]);
    assert.deepEqual([onA.status, onB.status].sort(), [201, 409]);
    const { key } = createWorkspace(nodeA.dataDir, uniqueName('one'), 'one_inbox', { SANDBOX_PLANS: PLANS }).key;
    const creates = await Promise.all([nodeA, nodeB, nodeA, nodeB].map((node, i) => new ApiClient(node.httpUrl, key).post('/v1/inboxes', { name: `inbox ${i}` })));
    assert.deepEqual(creates.map((response) => response.status).sort(), [201, 402, 402, 402]);
  });
});
