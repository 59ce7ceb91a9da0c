// Two service nodes on one set of services (cluster profile only): a cap each node counts on its own is divided
// among SANDBOX_CLUSTER_NODES, so the cluster as a whole allows what was set rather than that many times the nodes,
// and each node's start log names its share.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import { expectError } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { describeCluster } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';

const ENV = { SANDBOX_CLUSTER_NODES: '2', SANDBOX_WAITS_PER_WORKSPACE: '2' };

describeCluster('per-node caps divided among the cluster\'s nodes', () => {
  let nodes: StartedServer[] = [];
  let key: string;
  const holders: AbortController[] = [];
  const held: Promise<unknown>[] = [];

  before(async () => {
    const dataDir = tempDataDir();
    nodes = [await startServer({ dataDir, env: ENV }), await startServer({ dataDir, env: ENV })];
    key = nodes[0]!.defaultKey!;
  });
  after(async () => {
    for (const holder of holders) holder.abort();
    await Promise.all(held);
    for (const node of nodes) await node.stop();
  });

  it('names each node\'s share in its start log', () => {
    for (const node of nodes) {
      const line = node.logs.find((entry) => entry.cluster_nodes !== undefined);
      assert.ok(line, 'a start log line names the per-node caps');
      assert.equal(line.cluster_nodes, 2);
      assert.equal((line.per_node as Record<string, number>).SANDBOX_WAITS_PER_WORKSPACE, 1);
    }
  });

  it('lets a workspace hold the waits it was given over the whole cluster, not that many on each node', async () => {
    const inbox = await createInbox(new ApiClient(nodes[0]!.httpUrl, key));
    const waitPath = (timeout: string) => `/v1/inboxes/${inbox.id}/messages/wait?${new URLSearchParams({ subject: 'never sent', timeout })}`;
    for (const node of nodes) {
      const api = new ApiClient(node.httpUrl, key);
      // One wait held open on this node, answered only when the test lets it go.
      const holder = new AbortController();
      holders.push(holder);
      held.push(fetch(new URL(waitPath('30'), node.httpUrl), { headers: { authorization: `Bearer ${key}` }, signal: holder.signal }).catch((error: unknown) => error));
      // A second on the same node is refused once the first is open; until then a short one is let in and times out.
      await pollUntil(async () => {
        const probe = await api.get(waitPath('0.2'));
        if (probe.status === 404) return false;
        expectError(probe, 429, 'too_many_waits', 'a second wait on one node');
        return true;
      }, 20_000, 'a second wait on the node to be refused');
    }
  });
});
