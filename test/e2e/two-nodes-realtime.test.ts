// Waits and event streams across two service nodes on one set of services (cluster profile only): a wait served
// by one node sees mail the other captured, and a stream client that loses its node resumes on the other one with
// Last-Event-ID, missing nothing and repeating nothing. The embedded profile is one process by design.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { describeCluster } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, smtpTransport, storedId, type SmtpCredentials } from '../support/smtp.js';
import { Relay } from '../support/tcp-relay.js';
import { StreamClient } from '../support/sse-client.js';

describeCluster('realtime across two nodes', function () {
  this.timeout(120_000);
  let nodeA: StartedServer;
  let nodeB: StartedServer;
  let apiB: ApiClient;
  let key: string;
  let inbox: InboxWithCredentialsJson;
  const onNode = (node: StartedServer): SmtpCredentials => ({ ...credentialsOf(inbox), port: node.smtpPort });
  let relay: Relay | undefined;
  let stream: StreamClient | undefined;

  before(async () => {
    const dataDir = tempDataDir();
    // One data dir maps to one namespace, so both nodes share every index, bucket and Redis key; distinct node
    // ids keep them two nodes rather than one node started twice.
    nodeA = await startServer({ dataDir, env: { SANDBOX_NODE_ID: 'realtime-node-a' } });
    nodeB = await startServer({ dataDir, env: { SANDBOX_NODE_ID: 'realtime-node-b' } });
    assert.ok(nodeA.defaultKey, 'the first node creates the default workspace');
    key = nodeA.defaultKey;
    apiB = new ApiClient(nodeB.httpUrl, key);
  });
  beforeEach(async () => {
    inbox = await createInbox(new ApiClient(nodeA.httpUrl, key));
  });
  afterEach(async () => {
    stream?.close();
    await relay?.cut();
  });
  after(async () => {
    await nodeA?.stop();
    await nodeB?.stop();
  });

  it('answers a wait on node B with the message node A captured', async () => {
    const subject = uniqueName('cross-node');
    const waiting = apiB.get(`/v1/inboxes/${inbox.id}/messages/wait?${new URLSearchParams({ subject, timeout: '20' })}`);
    // A non-matching capture first, on node A too: node B must let it pass and keep waiting.
    await sendRaw(onNode(nodeA), 'Subject: not it\r\n\r\nx\r\n', { from: 'a@two.test', to: ['b@two.test'] });
    const id = storedId(String((await sendRaw(onNode(nodeA), `Subject: ${subject}\r\n\r\nx\r\n`, { from: 'a@two.test', to: ['b@two.test'] })).response));
    const found = expectOk<MessageDetailJson>(await waiting);
    assert.equal(found.id, id);
    assert.equal(found.subject, subject);
  });

  it('answers wait-many on node B with the messages both nodes captured, and wait-none on B with node A\'s match', async () => {
    const subject = uniqueName('cross-node-many');
    const since = expectOk<{ since: string }>(await apiB.get(`/v1/inboxes/${inbox.id}/mark`)).since;
    const many = apiB.get(`/v1/inboxes/${inbox.id}/messages/wait-many?${new URLSearchParams({ subject, since, count: '3', timeout: '20' })}`);
    const none = apiB.get(`/v1/inboxes/${inbox.id}/messages/wait-none?${new URLSearchParams({ subject: `${subject} from A`, since, timeout: '20' })}`);
    const ids: string[] = [];
    for (const [i, node] of [nodeA, nodeB, nodeA].entries()) {
      ids.push(storedId(String((await sendRaw(onNode(node), `Subject: ${subject} from ${node === nodeA ? 'A' : 'B'} ${i}\r\n\r\nx\r\n`, { from: 'a@two.test', to: ['b@two.test'] })).response)));
    }
    assert.deepEqual(expectOk<MessageDetailJson[]>(await many).map((message) => message.id), ids);
    const refused = await none;
    expectError(refused, 409, 'unexpected_message');
    assert.equal((refused.json as { error: { found: MessageDetailJson } }).error.found.id, ids[0], 'node A\'s first match ended node B\'s wait for none');
  });

  it('resumes a stream dropped on node A on node B with exactly the 50 messages captured meanwhile on both', async () => {
    relay = new Relay(nodeA.httpUrl);
    await relay.open();
    stream = new StreamClient('through the relay', `${relay.url}/v1/inboxes/${inbox.id}/events`, key);
    await stream.waitFor('the stream on node A to open', () => stream!.opened >= 1);
    const transports = [smtpTransport(onNode(nodeA), { pool: true }), smtpTransport(onNode(nodeB), { pool: true })];
    // One message at a time, alternating between the nodes: each 250 means stored before the next send
    // starts, so the stored order is the send order.
    const send = async (count: number, prefix: string) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const info = await transports[i % 2]!.sendMail({ from: 'a@two.test', to: 'b@two.test', subject: `${prefix} ${i}`, text: `body ${i}` });
        ids.push(storedId(String(info.response)));
      }
      return ids;
    };
    try {
      const first = await send(5, 'on A before the drop');
      await stream.waitFor('5 events from node A', () => stream!.events.length >= 5);
      assert.deepEqual(stream.summaries().map((m) => m.id), first);
      const lastSeen = stream.events[4]!.id;
      const connectionsToA = relay.upstreams.length;

      // Node A is gone for this client; its next connection lands on node B.
      await relay.cut();
      relay.retarget(nodeB.httpUrl);
      await stream.waitFor('the client to notice the drop', () => stream!.errors > 0, 10_000);
      const missed = await send(50, 'while disconnected');
      await relay.open();
      await stream.waitFor('the 50 missed events from node B', () => stream!.events.length >= 55);
      // Sent after the resume: anything extra (a duplicate, a replay) would sit before it.
      const [sentinel] = await send(1, 'after the resume');
      await stream.waitFor('the event sent after the resume', () => stream!.events.length >= 56);

      const received = stream.summaries().map((m) => m.id);
      assert.deepEqual(received.slice(5, 55).sort(), [...missed].sort(), 'the set of resumed events is the 50 missed');
      assert.deepEqual(received, [...first, ...missed, sentinel], 'no gap, no duplicate, in stored order');
      assert.equal(new Set(stream.events.map((event) => event.id)).size, 56, 'distinct event ids');
      assert.ok(stream.attempts.length >= 2, 'the client reconnected');
      const origin = (node: StartedServer) => new URL(node.httpUrl).origin;
      assert.deepEqual(relay.upstreams.slice(0, connectionsToA), relay.upstreams.slice(0, connectionsToA).map(() => origin(nodeA)), 'before the drop the client was on node A');
      assert.ok(relay.upstreams.length > connectionsToA, 'the client connected again after the drop');
      assert.deepEqual(relay.upstreams.slice(connectionsToA), relay.upstreams.slice(connectionsToA).map(() => origin(nodeB)), 'after the drop the client was on node B');
      assert.deepEqual(stream.attempts.slice(1), stream.attempts.slice(1).map(() => lastSeen), 'every reconnect resumed after the last event seen');
    } finally {
      for (const transport of transports) transport.close();
    }
  });
});
