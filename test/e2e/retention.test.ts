// End to end, both profiles: a server restarted without a plan that a workspace is on keeps that workspace's mail
// (its retention sweep at start deletes none of it), says so in the log naming the workspace and plan and in
// /readyz, while the configured plans are swept as ever.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { UsageJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { testProfile } from '../support/profile.js';

interface Readiness {
  status: string;
  warnings: { code: string; message: string }[];
}

async function send(api: ApiClient, inboxId: string, subject: string): Promise<string> {
  return expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inboxId}/send`, {
    from: { email: 'app@retention.test' }, to: [{ email: 'qa@retention.test' }], subject, text: `body of ${subject}`,
  }), 201, `send '${subject}'`).id;
}

describe(`retention when a workspace's plan is not configured (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const dataDir = tempDataDir();
  let server: StartedServer | undefined;

  after(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('deletes none of its mail at the next start, warns in the log and in /readyz, and sweeps the configured plans as ever', async () => {
    // First start: a year-long 'gold' plan, and the shipped 'free' one.
    const withGold = { SANDBOX_PLANS: JSON.stringify({ gold: { retention_days: 365 } }) };
    server = await startServer({ dataDir, env: withGold });
    const golden = createWorkspace(dataDir, 'golden', 'gold', withGold);
    const weekly = createWorkspace(dataDir, 'weekly', 'free', withGold);
    const goldApi = new ApiClient(server.httpUrl, golden.key.key);
    const freeApi = new ApiClient(server.httpUrl, weekly.key.key);
    const goldInbox = await createInbox(goldApi);
    const freeInbox = await createInbox(freeApi);
    const kept = await send(goldApi, goldInbox.id, 'kept for a year');
    await send(freeApi, freeInbox.id, 'expires at once');
    await server.stop();
    server = undefined;

    // The next start has lost 'gold', and the plan a missing one fell back to keeps nothing at all: before, the
    // sweep at start deleted gold's mail for good.
    server = await startServer({ dataDir, env: { SANDBOX_PLANS: JSON.stringify({ free: { retention_days: 0, requests_per_second: 1000 } }) } });
    const restartedGold = new ApiClient(server.httpUrl, golden.key.key);
    const restartedFree = new ApiClient(server.httpUrl, weekly.key.key);
    // The sweep ran: the configured plan's mail went.
    await pollUntil(async () => (await listMessages(restartedFree, freeInbox.id)).length === 0, 30_000, 'the free plan\'s sweep at start');

    assert.deepEqual((await listMessages(restartedGold, goldInbox.id)).map((message) => message.id), [kept], 'the unconfigured plan\'s mail is all there');
    const raw = await restartedGold.get(`/v1/messages/${kept}/raw`);
    assert.equal(raw.status, 200);
    assert.match(raw.bytes.toString(), /Subject: kept for a year/);

    const warning = server.logs.find((line) => line.workspace_id === golden.workspace.id && line.plan === 'gold');
    assert.ok(warning, `a log line names the workspace and its plan: ${JSON.stringify(server.logs.filter((line) => Number(line.level) >= 40))}`);
    assert.match(String(warning.msg), /none of its mail is deleted by retention/);

    const readiness = await restartedGold.withKey(null).get<Readiness>('/readyz');
    assert.equal(readiness.status, 200, 'a missing plan does not take the server out of service');
    assert.equal(readiness.json.status, 'ready');
    assert.deepEqual(readiness.json.warnings.map((w) => w.code), ['plan_not_configured']);
    assert.match(readiness.json.warnings[0]!.message, /^1 workspace\(s\) are on plan 'gold', which SANDBOX_PLANS does not define/);
    assert.ok(!readiness.json.warnings[0]!.message.includes(golden.workspace.id), '/readyz needs no key, so it names no workspace');

    // The workspace sees its mail kept and the strictest configured limits: free's 500 a month.
    const usage = expectOk<UsageJson>(await restartedGold.get('/v1/usage'));
    assert.equal(usage.retention_days, null);
    assert.equal(usage.monthly_limit, 500);
    assert.equal(usage.member_limit, 1);
  });
});
