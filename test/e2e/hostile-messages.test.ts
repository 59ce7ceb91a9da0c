// End to end (issue 11): every hostile shape is captured over real SMTP and read back whole, while another tenant's requests and mail keep succeeding.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { setTimeout as pause } from 'node:timers/promises';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson } from '../support/api-json.js';
import { assertSameBytes } from '../support/bytes.js';
import { expectError, expectOk } from '../support/envelope.js';
import { HOSTILE_SHAPES } from '../support/hostile-messages.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { detailOf, listMessages, summaryOf } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, smtpTransport, storedId, type SmtpCredentials } from '../support/smtp.js';

/**
 * Per shape: a 24.5 MiB message on 2 cores, stored in MinIO and Elasticsearch in the cluster profile, may take long,
 * and speed is the bench's business (scripts/bench/), so the test only has to end.
 */
const SHAPE_TIMEOUT_MS = 10 * 60_000;

/** nodemailer gives up on a silent server after 30 s by default: that would be a timing assertion, which this suite must not make. */
const PATIENT_SMTP: Partial<SMTPTransport.Options> = {
  connectionTimeout: SHAPE_TIMEOUT_MS,
  greetingTimeout: SHAPE_TIMEOUT_MS,
  socketTimeout: SHAPE_TIMEOUT_MS,
};

/** Gaps between the bystander's requests and messages: unpaced loops would take a core of two from the capture they watch. */
const REQUEST_GAP_MS = 20;
const MESSAGE_GAP_MS = 100;

/**
 * What a full analysis of each shape shows; when it is not there, the analysis was cut short and `parse_error` must
 * say which limit stopped it. Returns what is missing, or null.
 */
const MISSING_WHEN_CUT_SHORT: Record<string, (detail: MessageDetailJson) => string | null> = {
  'nested-div-2mb': (detail) => (detail.has_html ? null : 'the HTML body'),
  'nested-div-25mb': (detail) => (detail.has_html ? null : 'the HTML body'),
  'mime-depth-3000': (detail) => (detail.has_text ? null : 'the text part at the bottom'),
  'headers-50000': (detail) => {
    const fillers = Object.keys(detail.headers ?? {}).filter((name) => name.startsWith('x-filler-')).length;
    return fillers === 50_000 ? null : `${50_000 - fillers} of the 50,000 X-Filler headers`;
  },
  'links-100000': (detail) => (detail.link_count === 100_000 ? null : `${100_000 - detail.link_count} of the 100,000 links`),
  'attachments-20000': (detail) => (detail.attachment_count === 20_000 ? null : `${20_000 - detail.attachment_count} of the 20,000 attachments`),
};

/** Words a parse_error uses when it names the limit that stopped the analysis ("analysis stopped after 5 s", "... exceeded"). */
const NAMES_A_LIMIT = /stopped|limit|exceed/i;

/** The value of a header the shapes put at the top of the message, read from the bytes sent. */
function leadingHeader(raw: Buffer, name: string): string {
  const value = new RegExp(`^${name}: (.*)\r$`, 'mi').exec(raw.subarray(0, 4096).toString('latin1'))?.[1];
  assert.ok(value, `the message has no ${name} header near its top`);
  return value;
}

/** The size limit the server announces in its EHLO reply (RFC 1870 SIZE): what it really enforces. */
async function announcedSizeLimit(port: number): Promise<number> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    for await (const line of readline.createInterface({ input: socket, crlfDelay: Infinity })) {
      if (line.startsWith('220 ')) socket.write('EHLO client.test\r\n');
      const size = /^250[- ]SIZE (\d+)$/i.exec(line);
      if (size) return Number(size[1]);
      if (line.startsWith('250 ')) break;
    }
  } finally {
    socket.destroy();
  }
  return assert.fail('the EHLO reply announces no SIZE');
}

/** Another workspace, whose requests and mail must not wait on the hostile message. */
interface Bystander {
  api: ApiClient;
  smtp: SmtpCredentials;
}

/**
 * Until `work` settles, the bystander reads its workspace in a loop and sends small messages over its own SMTP
 * connection; every request must answer 200 and every message 250. Each loop runs at least once.
 */
async function bystanderThroughout(bystander: Bystander, work: Promise<unknown>): Promise<void> {
  let settled = false;
  const settle = () => (settled = true);
  work.then(settle, settle);
  const counts = { requests: 0, messages: 0 };
  const requests = async () => {
    do {
      expectOk(await bystander.api.get('/v1/workspace'), 200, `bystander request ${counts.requests + 1}`);
      counts.requests++;
      await pause(REQUEST_GAP_MS);
    } while (!settled);
  };
  const messages = async () => {
    const transport = smtpTransport(bystander.smtp, { pool: true, ...PATIENT_SMTP });
    try {
      do {
        const n = counts.messages + 1;
        const info = await transport.sendMail({ from: 'app@bystander.example.test', to: 'user@bystander.example.test', subject: `bystander ${n}`, text: `small message ${n}` });
        storedId(String(info.response));
        counts.messages++;
        await pause(MESSAGE_GAP_MS);
      } while (!settled);
    } finally {
      transport.close();
    }
  };
  await Promise.all([requests(), messages(), work]);
}

describe('hostile messages (e2e)', function () {
  this.timeout(SHAPE_TIMEOUT_MS);
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let bystander: Bystander;
  let sizeLimit: number;

  before(async function () {
    server = await startServer();
    assert.ok(server.defaultKey, 'the first start prints the default workspace key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api, uniqueName('hostile'));
    const other = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, uniqueName('bystander')).key.key);
    bystander = { api: other, smtp: credentialsOf(await createInbox(other, uniqueName('bystander'))) };
    sizeLimit = await announcedSizeLimit(server.smtpPort);
  });

  after(async function () {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  for (const shape of HOSTILE_SHAPES) {
    it(`${shape.name}: ${shape.description} — stored, listed, readable, raw intact; another tenant served throughout`, async function () {
      const raw = shape.build();
      const envelope = { from: 'hostile@sender.example.test', to: ['target@sandbox.example.test'] };
      // A refusal settles the promise too, so the bystander stops and the reply is checked below.
      const sending = sendRaw(credentialsOf(inbox), raw, envelope, PATIENT_SMTP).then(
        (info) => String(info.response),
        (error: { response?: string; message: string }) => error.response ?? error.message,
      );
      // The reads are in the window too: reading a hostile message must not hold anyone up either.
      const readBack = sending.then(async (reply) => {
        if (raw.length > sizeLimit) return null;
        const id = storedId(reply);
        return {
          id,
          summary: await summaryOf(api, inbox.id, id),
          detail: await detailOf(api, id),
          rawResponse: await api.get(`/v1/messages/${id}/raw`),
          views: [await api.get(`/v1/inboxes/${inbox.id}/messages/${id}/view.html`), await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.txt`)],
        };
      });
      await bystanderThroughout(bystander, readBack);

      const stored = await readBack;
      if (stored === null) {
        assert.match(await sending, /^552 5\.3\.4 /, `a ${raw.length}-byte message is over the ${sizeLimit}-byte limit`);
        return;
      }
      const { id, summary, detail } = stored;
      assert.equal(stored.rawResponse.status, 200);
      // Rendered, or refused for the analysis limit the message is known to overrun; never a stall or a 5xx.
      for (const view of stored.views) {
        if (view.status !== 200) expectError(view, 422, 'analysis_limit', `a view of ${shape.name}`);
      }
      assertSameBytes(stored.rawResponse.bytes, raw);
      assert.equal(summary.size, raw.length);

      // Found whatever the analysis managed: the headers alone give subject, from and message id.
      assert.equal(summary.subject, leadingHeader(raw, 'Subject'));
      const fromAddress = /<([^>]+)>/.exec(leadingHeader(raw, 'From'))?.[1];
      assert.ok(fromAddress && summary.from.includes(fromAddress), `from: '${summary.from}'`);
      assert.equal(summary.message_id, leadingHeader(raw, 'Message-ID'));
      const found = await listMessages(api, inbox.id, `subject:"${shape.name}"`);
      assert.ok(found.some((message) => message.id === id), `subject:"${shape.name}" does not find ${id}`);

      const missingOf = MISSING_WHEN_CUT_SHORT[shape.name];
      assert.ok(missingOf, `no completeness check for the shape ${shape.name}`);
      const missing = missingOf(detail);
      if (missing === null) {
        assert.ok(summary.parse_error === undefined || summary.parse_error.length > 0, 'parse_error is absent or says something');
      } else {
        assert.equal(typeof summary.parse_error, 'string', `${missing} missing from the analysis, yet no parse_error`);
        assert.match(summary.parse_error!, NAMES_A_LIMIT, `${missing} missing; parse_error does not name the limit`);
      }
      assert.equal(detail.parse_error, summary.parse_error, 'the detail and the list agree on parse_error');
    });
  }
});
