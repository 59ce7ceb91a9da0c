// End to end: an inbox's chaos settings over the API, what real SMTP clients (nodemailer, and a hand-driven socket
// for what nodemailer hides) then meet at each stage, and the dry run agreeing with them.
import { strict as assert } from 'node:assert';
import { performance } from 'node:perf_hooks';
import { admin, createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxJson, InboxWithCredentialsJson, ResponseJson, UsageJson, WorkspaceJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { authPlain, buildMessage, RawSmtp, type SmtpReply } from '../support/raw-smtp.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, rejection, sendRaw, smtpTransport, storedId } from '../support/smtp.js';

type ChaosJson = ResponseJson<'getInboxChaos'>['data'];
type ChaosTestJson = ResponseJson<'testInboxChaos'>['data'];
type Stage = 'connection' | 'authentication' | 'sender' | 'recipient' | 'data';

const envelope = { from: 'app@client.example', to: ['user@customer.example'] };
const message = (subject: string) => buildMessage(['From: app@client.example', 'To: user@customer.example', `Subject: ${subject}`], 'hello');

describe('chaos (end to end)', function () {
  let server: StartedServer;
  let api: ApiClient;
  let reader: ApiClient;

  before(async function () {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey);
    const workspace = expectOk<WorkspaceJson>(await api.get('/v1/workspace'));
    reader = api.withKey(admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspace.id, '--access', 'read']).key);
  });

  after(async function () {
    await server?.stop();
  });

  const getChaos = async (inboxId: string, client = api) => expectOk<ChaosJson>(await client.get(`/v1/inboxes/${inboxId}/chaos`));
  const putChaos = async (inboxId: string, body: unknown) => expectOk<ChaosJson>(await api.request('PUT', `/v1/inboxes/${inboxId}/chaos`, { body }), 200, `PUT chaos ${JSON.stringify(body)}`);
  const dryRun = async (inboxId: string, client = api) => expectOk<ChaosTestJson>(await client.post(`/v1/inboxes/${inboxId}/chaos/test`));
  const usage = async () => expectOk<UsageJson>(await api.get('/v1/usage')).used;
  const messageCount = async (inboxId: string) => expectOk<InboxJson>(await api.get(`/v1/inboxes/${inboxId}`)).message_count;
  const metric = async (name: string, labels: Record<string, string>) => sampleValue(parseExposition((await api.withKey(null).get('/metrics')).bytes.toString()), name, labels);
  const replyLine = (reply: SmtpReply) => `${reply.code} ${reply.text}`;

  describe('settings over the API', function () {
    let inbox: InboxWithCredentialsJson;
    before(async function () {
      inbox = await createInbox(api);
    });

    it('a new inbox has chaos disabled and every probability at 0', async function () {
      const chaos = await getChaos(inbox.id);
      assert.equal(chaos.enabled, false);
      for (const stage of ['connection', 'authentication', 'sender', 'recipient', 'data'] as const) {
        assert.equal(chaos[stage].probability, 0, stage);
        assert.match(chaos[stage].message!, /^Chaos: /, stage);
      }
      assert.equal(chaos.disconnect.probability, 0);
      assert.equal(chaos.delay.probability, 0);
    });

    it('PUT replaces the settings whole: what it leaves out returns to its default, GET shows what is in force', async function () {
      const full = {
        enabled: true,
        connection: { probability: 1, code: 554, message: 'go away' },
        authentication: { probability: 2, code: 535, message: 'bad login' },
        sender: { probability: 3.5, code: 553, message: 'bad sender' },
        recipient: { probability: 4, code: 551, message: 'not here' },
        data: { probability: 5, code: 452, message: 'full' },
        disconnect: { stage: 'recipient', probability: 6 },
        delay: { stage: 'sender', probability: 7, ms: 250 },
      };
      const chaosShown = async () => expectOk<InboxJson>(await api.get(`/v1/inboxes/${inbox.id}`)).chaos_enabled;
      assert.equal(await chaosShown(), false, 'the inbox says its chaos is off');
      assert.deepEqual(await putChaos(inbox.id, full), full);
      assert.deepEqual(await getChaos(inbox.id), full);
      assert.equal(await chaosShown(), true, 'the inbox says its chaos is on');
      assert.ok(expectOk<InboxJson[]>(await api.get('/v1/inboxes')).find((listed) => listed.id === inbox.id)!.chaos_enabled, 'and so does the list');
      const partial = await putChaos(inbox.id, { enabled: true, sender: { probability: 100, code: 550 } });
      assert.deepEqual(partial.sender, { probability: 100, code: 550, message: 'Chaos: sender refused by this inbox\'s chaos settings' });
      assert.equal(partial.recipient.probability, 0, 'a trigger left out is back at probability 0');
      assert.equal(partial.delay.probability, 0);
      // What GET answers, PUT takes back unchanged.
      assert.deepEqual(await putChaos(inbox.id, partial), partial);
    });

    it('a PUT with one bad field answers 400 naming it and changes nothing', async function () {
      const before = await putChaos(inbox.id, { enabled: true, recipient: { probability: 10, code: 450, message: 'later' } });
      const good = { enabled: true, sender: { probability: 50, code: 451 }, recipient: { probability: 50, code: 550 } };
      const cases: [unknown, RegExp][] = [
        [{ ...good, recipient: { probability: 50, code: 250 } }, /body\.recipient\.code: must be one of 421, 450, 451, 452, 550, 551, 552, 553, 554/],
        [{ ...good, connection: { probability: 100, code: 550 } }, /body\.connection\.code: must be one of 421, 554/],
        [{ ...good, sender: { probability: 101, code: 451 } }, /body\.sender\.probability/],
        [{ ...good, data: { probability: 100, code: 554, message: 'two\r\nlines' } }, /body\.data\.message/],
        [{ ...good, delay: { stage: 'data', probability: 100, ms: 60_000 } }, /body\.delay\.ms/],
        [{ ...good, disconnect: { stage: 'connection', probability: 100 } }, /body\.disconnect\.stage: must be one of authentication, sender, recipient, data/],
        [{ ...good, sender: { probability: 50, code: 451, enhanced: '4.3.0' } }, /body\.sender: unknown field 'enhanced'/],
        [{ sender: { probability: 50, code: 451 } }, /missing required field 'enabled'/],
      ];
      for (const [body, named] of cases) {
        const refused = expectError(await api.request('PUT', `/v1/inboxes/${inbox.id}/chaos`, { body }), 400, 'invalid_request', JSON.stringify(body));
        assert.match(refused, named);
        assert.deepEqual(await getChaos(inbox.id), before, `nothing changed after ${JSON.stringify(body)}`);
      }
    });

    it('a read key may read the settings and run the dry run, but not change them', async function () {
      const before = await getChaos(inbox.id);
      expectError(await reader.request('PUT', `/v1/inboxes/${inbox.id}/chaos`, { body: { enabled: false } }), 403, 'read_only_key');
      assert.deepEqual(await getChaos(inbox.id, reader), before);
      assert.equal((await dryRun(inbox.id, reader)).enabled, before.enabled);
    });

    it("another workspace's inbox answers 404 on every chaos operation and keeps its settings", async function () {
      const other = createWorkspace(server.dataDir, `chaos-other-${process.pid}`);
      const otherApi = api.withKey(other.key.key);
      const before = await putChaos(inbox.id, { enabled: true, sender: { probability: 100, code: 550 } });
      expectError(await otherApi.get(`/v1/inboxes/${inbox.id}/chaos`), 404, 'not_found');
      expectError(await otherApi.request('PUT', `/v1/inboxes/${inbox.id}/chaos`, { body: { enabled: false } }), 404, 'not_found');
      expectError(await otherApi.post(`/v1/inboxes/${inbox.id}/chaos/test`), 404, 'not_found');
      assert.deepEqual(await getChaos(inbox.id), before);
    });
  });

  describe('each trigger at probability 100 gives its exact reply, as the dry run says', function () {
    /** How a standard client meets each stage: nodemailer sends one message and reports the refusal. */
    const cases: { stage: Stage; code: number; enhanced: string; text: string }[] = [
      { stage: 'connection', code: 554, enhanced: '5.6.0', text: 'No SMTP service here today' },
      { stage: 'authentication', code: 454, enhanced: '4.7.0', text: 'Temporary authentication failure' },
      { stage: 'sender', code: 553, enhanced: '5.1.3', text: 'Sender address rejected' },
      { stage: 'recipient', code: 550, enhanced: '5.1.1', text: 'No such user here' },
      { stage: 'data', code: 452, enhanced: '4.2.2', text: 'Insufficient system storage' },
    ];

    for (const { stage, code, enhanced, text } of cases) {
      it(`${stage}: ${code} ${enhanced}, counted by stage, nothing stored or counted`, async function () {
        const inbox = await createInbox(api);
        await putChaos(inbox.id, { enabled: true, [stage]: { probability: 100, code, message: text } });
        const usedBefore = await usage();
        const firedBefore = await metric('mail_sandbox_chaos_replies_total', { stage, kind: 'reply' });

        const failure = await rejection(sendRaw(credentialsOf(inbox), message(`chaos ${stage}`), envelope));
        assert.equal(failure.code, code);
        assert.equal(failure.response, `${code} ${enhanced} ${text}`);

        const outcome = (await dryRun(inbox.id))[stage];
        assert.deepEqual(outcome, { result: 'refused', code, enhanced_code: enhanced, message: text, closes_connection: stage === 'connection', delay_ms: 0 });
        assert.equal(`${outcome.code} ${outcome.enhanced_code} ${outcome.message}`, failure.response, 'the dry run reports what the client received');

        assert.equal(await messageCount(inbox.id), 0);
        assert.equal(await usage(), usedBefore, 'a refused message is not counted');
        assert.equal(await metric('mail_sandbox_chaos_replies_total', { stage, kind: 'reply' }), firedBefore + 1);
      });
    }

    it('connection: the refusal replaces the 235 and the server then closes the connection', async function () {
      const inbox = await createInbox(api);
      await putChaos(inbox.id, { enabled: true, connection: { probability: 100, code: 421, message: 'Too busy' } });
      const client = await RawSmtp.greet(inbox.smtp.ports[0]!);
      try {
        assert.equal(replyLine(await client.command(authPlain(credentialsOf(inbox)))), '421 4.4.2 Too busy');
        await client.closedByServer();
      } finally {
        await client.quit();
      }
    });

    it('authentication: the login is refused but the session stays open', async function () {
      const inbox = await createInbox(api);
      await putChaos(inbox.id, { enabled: true, authentication: { probability: 100, code: 535, message: 'Nope' } });
      const client = await RawSmtp.greet(inbox.smtp.ports[0]!);
      try {
        assert.equal(replyLine(await client.command(authPlain(credentialsOf(inbox)))), '535 5.7.8 Nope');
        await client.expect('NOOP', 250);
        assert.equal((await client.command('MAIL FROM:<a@client.example>')).code, 530, 'not logged in');
      } finally {
        await client.quit();
      }
    });

    it('data: the whole message is received and then refused; the connection takes the next transaction', async function () {
      const inbox = await createInbox(api);
      const capturedBefore = await metric('mail_sandbox_messages_captured_total', { channel: 'smtp', result: 'chaos' });
      await putChaos(inbox.id, { enabled: true, data: { probability: 100, code: 554, message: 'Message refused' } });
      const client = await RawSmtp.login(credentialsOf(inbox));
      try {
        const refused = await client.transaction(envelope, message('refused at the end of DATA'));
        assert.equal(replyLine(refused), '554 5.6.0 Message refused');
        await putChaos(inbox.id, { enabled: false });
        const accepted = await client.transaction(envelope, message('accepted next'));
        assert.equal(accepted.code, 250, accepted.text);
      } finally {
        await client.quit();
      }
      assert.deepEqual((await listMessages(api, inbox.id)).map((m) => m.subject), ['accepted next']);
      assert.equal(await metric('mail_sandbox_messages_captured_total', { channel: 'smtp', result: 'chaos' }), capturedBefore + 1);
    });
  });

  it('at probability 0 nothing fires: every message is stored, and the dry run reports the success replies the server sends', async function () {
    const inbox = await createInbox(api);
    const zero = { probability: 0, code: 421 };
    await putChaos(inbox.id, { enabled: true, connection: zero, authentication: zero, sender: zero, recipient: zero, data: zero, disconnect: { stage: 'data', probability: 0 }, delay: { stage: 'sender', probability: 0, ms: 5000 } });
    const client = await RawSmtp.greet(inbox.smtp.ports[0]!);
    const received: Record<Stage, string> = { connection: '', authentication: '', sender: '', recipient: '', data: '' };
    try {
      received.authentication = received.connection = replyLine(await client.expect(authPlain(credentialsOf(inbox)), 235));
      for (let i = 0; i < 5; i++) {
        received.sender = replyLine(await client.expect(`MAIL FROM:<${envelope.from}>`, 250));
        received.recipient = replyLine(await client.expect(`RCPT TO:<${envelope.to[0]}>`, 250));
        await client.expect('DATA', 354);
        const stored = await client.sendData(message(`zero ${i}`));
        received.data = replyLine(stored).replace(storedId(replyLine(stored)), '<message id>');
      }
    } finally {
      await client.quit();
    }
    assert.equal((await listMessages(api, inbox.id)).length, 5);
    const report = await dryRun(inbox.id);
    assert.equal(report.enabled, true);
    for (const stage of Object.keys(received) as Stage[]) {
      const outcome = report[stage];
      assert.equal(outcome.result, 'accepted', stage);
      assert.equal(`${outcome.code} ${outcome.enhanced_code} ${outcome.message}`, received[stage], stage);
      assert.equal(outcome.delay_ms, 0);
    }
  });

  it('rolls each RCPT TO on its own: at 50 %, about half of 400 recipients are refused, and the message keeps the others', async function () {
    const inbox = await createInbox(api);
    await putChaos(inbox.id, { enabled: true, recipient: { probability: 50, code: 450, message: 'Mailbox busy' } });
    const recipients = Array.from({ length: 400 }, (_, i) => `member${i}@list.example`);
    const accepted: string[] = [];
    const client = await RawSmtp.login(credentialsOf(inbox));
    try {
      await client.expect(`MAIL FROM:<${envelope.from}>`, 250);
      for (const recipient of recipients) {
        const reply = await client.command(`RCPT TO:<${recipient}>`);
        if (reply.code === 250) accepted.push(recipient);
        else assert.equal(replyLine(reply), '450 4.2.1 Mailbox busy');
      }
      await client.expect('DATA', 354);
      const stored = await client.sendData(message('half the list'));
      assert.equal(stored.code, 250, stored.text);
    } finally {
      await client.quit();
    }
    // Binomial(400, 0.5): mean 200, standard deviation 10; outside 140..260 is a six-sigma event.
    assert.ok(accepted.length >= 140 && accepted.length <= 260, `${accepted.length} of 400 accepted`);
    const [stored] = await listMessages(api, inbox.id);
    assert.deepEqual(stored!.recipients, accepted);
  });

  describe('disconnect: the connection closes without a reply at the chosen stage', function () {
    for (const stage of ['authentication', 'sender', 'recipient', 'data'] as const) {
      it(stage, async function () {
        const inbox = await createInbox(api);
        await putChaos(inbox.id, { enabled: true, disconnect: { stage, probability: 100 } });
        const droppedBefore = await metric('mail_sandbox_chaos_replies_total', { stage, kind: 'disconnect' });
        const client = await RawSmtp.greet(inbox.smtp.ports[0]!);
        try {
          const steps = [authPlain(credentialsOf(inbox)), `MAIL FROM:<${envelope.from}>`, `RCPT TO:<${envelope.to[0]}>`, 'DATA'];
          const at = ['authentication', 'sender', 'recipient', 'data'].indexOf(stage);
          for (const line of steps.slice(0, at)) assert.ok([235, 250].includes((await client.command(line)).code), line);
          if (stage === 'data') {
            await client.expect('DATA', 354);
            client.socket.write(Buffer.concat([message('dropped'), Buffer.from('.\r\n')]));
          } else {
            client.socket.write(`${steps[at]}\r\n`);
          }
          await client.closedByServer();
        } finally {
          await client.quit();
        }
        assert.equal(await messageCount(inbox.id), 0);
        assert.equal(await metric('mail_sandbox_chaos_replies_total', { stage, kind: 'disconnect' }), droppedBefore + 1);
        assert.deepEqual((await dryRun(inbox.id))[stage], { result: 'disconnected', code: null, enhanced_code: null, message: null, closes_connection: true, delay_ms: 0 });
      });
    }
  });

  it('delay: the reply waits, so a client with a shorter timeout gives up', async function () {
    const inbox = await createInbox(api);
    await putChaos(inbox.id, { enabled: true, delay: { stage: 'sender', probability: 100, ms: 1500 } });
    const client = await RawSmtp.login(credentialsOf(inbox));
    try {
      const started = performance.now();
      await client.expect(`MAIL FROM:<${envelope.from}>`, 250);
      const waited = performance.now() - started;
      assert.ok(waited >= 1450, `MAIL FROM answered after ${Math.round(waited)} ms`);
    } finally {
      await client.quit();
    }
    const transport = smtpTransport(credentialsOf(inbox), { socketTimeout: 500 });
    try {
      await assert.rejects(transport.sendMail({ envelope, raw: message('too slow') }), (error: { code?: string }) => error.code === 'ETIMEDOUT');
    } finally {
      transport.close();
    }
    assert.equal((await dryRun(inbox.id)).sender.delay_ms, 1500);
  });

  it('applies to the inbox alone: other inboxes, here and in another workspace, capture normally meanwhile', async function () {
    const chaotic = await createInbox(api);
    const neighbour = await createInbox(api);
    const other = createWorkspace(server.dataDir, `chaos-neighbour-${process.pid}`);
    const foreign = await createInbox(api.withKey(other.key.key));
    await putChaos(chaotic.id, { enabled: true, connection: { probability: 100, code: 554 }, sender: { probability: 100, code: 550 } });
    assert.equal((await rejection(sendRaw(credentialsOf(chaotic), message('refused'), envelope))).code, 554);
    storedId((await sendRaw(credentialsOf(neighbour), message('neighbour'), envelope)).response);
    storedId((await sendRaw(credentialsOf(foreign), message('foreign'), envelope)).response);
    assert.equal((await dryRun(neighbour.id)).enabled, false);
  });

  it('every command reads the settings afresh: armed, then disarmed, mid-session', async function () {
    const inbox = await createInbox(api);
    const client = await RawSmtp.login(credentialsOf(inbox));
    try {
      await client.expect(`MAIL FROM:<${envelope.from}>`, 250);
      await putChaos(inbox.id, { enabled: true, recipient: { probability: 100, code: 551, message: 'Moved' } });
      assert.equal(replyLine(await client.command(`RCPT TO:<${envelope.to[0]}>`)), '551 5.1.6 Moved');
      await putChaos(inbox.id, { enabled: false, recipient: { probability: 100, code: 551, message: 'Moved' } });
      await client.expect(`RCPT TO:<${envelope.to[0]}>`, 250);
      await putChaos(inbox.id, { enabled: true, data: { probability: 100, code: 451 } });
      await client.expect('DATA', 354);
      assert.equal((await client.sendData(message('armed at DATA'))).code, 451);
    } finally {
      await client.quit();
    }
  });

  it('a deleted inbox answers as deleted inboxes do, not with its chaos reply', async function () {
    const inbox = await createInbox(api);
    await putChaos(inbox.id, { enabled: true, sender: { probability: 100, code: 554, message: 'chaos' } });
    const client = await RawSmtp.login(credentialsOf(inbox));
    try {
      expectOk(await api.delete(`/v1/inboxes/${inbox.id}`));
      const reply = await client.command(`MAIL FROM:<${envelope.from}>`);
      assert.equal(reply.code, 535, replyLine(reply));
      assert.equal(reply.enhanced, '5.7.8');
    } finally {
      await client.quit();
    }
  });

  it('the dry run sends, stores and counts nothing, and with chaos disabled accepts at every stage', async function () {
    const inbox = await createInbox(api);
    const usedBefore = await usage();
    await putChaos(inbox.id, { enabled: true, data: { probability: 100, code: 554 }, sender: { probability: 100, code: 550 } });
    for (let i = 0; i < 3; i++) assert.equal((await dryRun(inbox.id)).data.result, 'refused');
    await putChaos(inbox.id, { enabled: false, data: { probability: 100, code: 554 } });
    const report = await dryRun(inbox.id, reader);
    assert.equal(report.enabled, false);
    for (const stage of ['connection', 'authentication', 'sender', 'recipient', 'data'] as const) assert.equal(report[stage].result, 'accepted', stage);
    assert.equal(await messageCount(inbox.id), 0);
    assert.equal(await usage(), usedBefore);
  });

  it('metrics name the stage and kind, never an inbox', async function () {
    const exposition = (await api.withKey(null).get('/metrics')).bytes.toString();
    const samples = parseExposition(exposition).filter((sample) => sample.name === 'mail_sandbox_chaos_replies_total');
    assert.ok(samples.length > 0);
    for (const sample of samples) assert.deepEqual(Object.keys(sample.labels).sort(), ['kind', 'stage']);
    assert.ok(!/inb_/.test(exposition), 'no inbox id anywhere in the metrics');
  });
});
