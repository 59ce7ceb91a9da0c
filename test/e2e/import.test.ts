// `admin import` against a running server's data, on whichever profile the run exercises: .eml files, an mbox and a
// Maildir captured through the one pipeline (exact bytes, envelope from the headers, tag rules, quota, webhooks
// sent by the server), refusals reported without stopping the rest, the quota ending an import early, and a hostile
// folder's links, FIFOs and sockets refused by reason, never read.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createWorkspace, runAdmin } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { MessageSummaryJson, UsageJson, WebhookMessageReceivedEventJson } from '../support/api-json.js';
import { assertSameBytes } from '../support/bytes.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { bodyOf, WebhookReceiver } from '../support/webhook-receiver.js';

interface ImportSummary {
  imported: number;
  refused: { source: string; code: string; message: string }[];
  skipped: { source: string; reason: string }[];
  seconds: number;
  messages_per_second: number;
}

const MAX_MESSAGE_BYTES = 8192;
const PLANS = JSON.stringify({ three: { monthly_limit: 3 } });
const ENV = { SANDBOX_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), SANDBOX_PLANS: PLANS };

/** A message as a mail program would save it; `newline` picks LF or CRLF. */
function message(headers: Record<string, string>, body: string, newline = '\n'): Buffer {
  const lines = [...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ...body.split('\n')];
  return Buffer.from(lines.join(newline));
}

/** An mboxrd file: each message after its separator, "From " lines escaped, one blank line after each. */
function mboxrd(messages: Buffer[]): Buffer {
  return Buffer.concat(messages.flatMap((raw, i) => [
    Buffer.from(`From sender@mbox.test Tue Nov  4 09:0${i}:00 2026\n`),
    Buffer.from(raw.toString('latin1').replace(/^(>*From )/gm, '>$1'), 'latin1'),
    Buffer.from('\n'),
  ]));
}

function write(root: string, relative: string, content: Buffer | string): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function runImport(server: StartedServer, args: string[]): ImportSummary {
  const result = runAdmin(server.dataDir, ['import', ...args, '--json'], ENV);
  assert.equal(result.status, 0, `import failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ImportSummary;
}

describe('admin import', function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let receiver: WebhookReceiver;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-import-'));

  // Every message that must arrive, by subject, with the bytes it must be stored as.
  const expected = new Map<string, Buffer>();
  const keep = (subject: string, raw: Buffer) => {
    expected.set(subject, raw);
    return raw;
  };

  before(async () => {
    server = await startServer({ env: { ...ENV, SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1' } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
    receiver = await WebhookReceiver.start();

    write(folder, 'eml/one.eml', keep('Eml one', message({ From: 'Alice <alice@eml.test>', To: 'qa@eml.test', Subject: 'Eml one' }, 'first\n')));
    write(folder, 'eml/two.eml', keep('Invoice 7', message({
      'Return-Path': '<bounces@billing.test>', From: 'billing@shop.test', To: 'me@eml.test', Cc: 'boss@eml.test', Bcc: 'audit@eml.test', Subject: 'Invoice 7',
    }, 'total: 12 EUR\n', '\r\n')));
    write(folder, 'eml/nested/three.eml', keep('Nested eml', message({ From: 'c@eml.test', To: 'qa@eml.test', Subject: 'Nested eml' }, 'deeper\n')));
    write(folder, 'eml/notes.txt', 'not mail, skipped\n');
    write(folder, 'eml/garbage.eml', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01]));
    write(folder, 'archive.mbox', mboxrd([
      keep('Mbox first', message({ From: 'a@mbox.test', To: 'qa@mbox.test', Subject: 'Mbox first' }, 'Quoting:\n\nFrom the start, this line was escaped.\n>From here too, twice.\n')),
      message({ From: 'big@mbox.test', To: 'qa@mbox.test', Subject: 'Too big' }, `${'x'.repeat(MAX_MESSAGE_BYTES)}\n`),
      keep('Mbox third', message({ From: 'c@mbox.test', To: 'qa@mbox.test', Subject: 'Mbox third' }, 'after the big one\n')),
    ]));
    write(folder, 'Maildir/cur/1762246800.M1P1.host:2,S', keep('Maildir seen', message({ 'Delivered-To': 'box@maildir.test', From: 'd@maildir.test', To: 'list@maildir.test', Subject: 'Maildir seen' }, 'read already\n')));
    write(folder, 'Maildir/new/1762246900.M2P1.host', keep('Maildir new', message({ From: 'e@maildir.test', To: 'box@maildir.test', Subject: 'Maildir new' }, 'fresh\n')));
    write(folder, 'Maildir/tmp/1762247000.M3P1.host', message({ From: 'f@maildir.test', Subject: 'Still being delivered' }, 'partial'));
    write(folder, 'Maildir/dovecot-uidlist', '3 V1 N3\n');
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('captures .eml files, an mbox and a Maildir through the pipeline, reporting what it refused and skipped', async () => {
    const inbox = await createInbox(api);
    expectOk(await api.post('/v1/tag-rules', { query: 'subject:invoice', tags: ['billing'] }), 201);
    const webhook = expectOk<{ secret: string }>(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: inbox.id }), 201);
    receiver.secret = webhook.secret;
    const usedBefore = expectOk<UsageJson>(await api.get('/v1/usage')).used;

    const summary = runImport(server, ['--inbox', inbox.id, path.join(folder, 'eml'), path.join(folder, 'archive.mbox'), path.join(folder, 'Maildir')]);
    assert.equal(summary.imported, expected.size);
    assert.deepEqual(summary.refused.map(({ source, code }) => ({ source, code })), [
      { source: path.join(folder, 'eml/garbage.eml'), code: 'not_an_email' },
      { source: `${path.join(folder, 'archive.mbox')}#2`, code: 'message_too_large' },
    ]);
    assert.match(summary.refused[1]!.message, new RegExp(`over the maximum of ${MAX_MESSAGE_BYTES}`));
    assert.deepEqual(summary.skipped.map((file) => file.source), [path.join(folder, 'eml/notes.txt')]);
    assert.ok(summary.seconds > 0 && summary.messages_per_second > 0, JSON.stringify(summary));

    const listed = await listMessages(api, inbox.id);
    assert.deepEqual(listed.map((m) => m.subject).sort(), [...expected.keys()].sort());
    for (const summaryJson of listed) {
      const raw = await api.get(`/v1/messages/${summaryJson.id}/raw`);
      assert.equal(raw.status, 200);
      assertSameBytes(raw.bytes, expected.get(summaryJson.subject)!, `raw bytes of '${summaryJson.subject}'`);
    }
    const mboxFirst = expected.get('Mbox first')!.toString();
    assert.ok(mboxFirst.includes('\nFrom the start') && mboxFirst.includes('\n>From here too'), 'the mbox escapes were undone exactly once');

    const bySubject = new Map(listed.map((m) => [m.subject, m] as [string, MessageSummaryJson]));
    const invoice = bySubject.get('Invoice 7')!;
    assert.deepEqual(invoice.tags, ['billing'], 'tag rules apply to imported messages');
    assert.equal(invoice.envelope_from, 'bounces@billing.test', 'Return-Path is the envelope sender');
    assert.deepEqual(invoice.recipients, ['me@eml.test', 'boss@eml.test', 'audit@eml.test'], 'To, Cc and Bcc are the recipients');
    assert.equal(bySubject.get('Eml one')!.envelope_from, 'alice@eml.test', 'without Return-Path, From is the envelope sender');
    assert.deepEqual(bySubject.get('Maildir seen')!.recipients, ['box@maildir.test', 'list@maildir.test'], 'Delivered-To is a recipient too, in header order');
    assert.ok(listed.every((m) => m.tls === false && m.tags.length === (m.subject === 'Invoice 7' ? 1 : 0)));

    assert.equal(expectOk<UsageJson>(await api.get('/v1/usage')).used, usedBefore + expected.size, 'imported messages count toward the quota');

    // The import only queued the deliveries; the server's delivery worker sends them.
    const requests = await receiver.waitForRequests(expected.size, 30_000);
    assert.ok(requests.every((request) => request.signature.ok), 'every delivery is signed');
    assert.deepEqual(requests.map((request) => bodyOf<WebhookMessageReceivedEventJson>(request).data.id).sort(), listed.map((m) => m.id).sort());
  });

  it('prints a plain-text summary without --json', async () => {
    const inbox = await createInbox(api);
    const result = runAdmin(server.dataDir, ['import', '--inbox', inbox.id, path.join(folder, 'eml/one.eml')], ENV);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^imported 1 messages in [\d.]+ s \([\d.]+ msg\/s\), refused 0\n$/);
  });

  it('refuses an unknown inbox or a missing path with a clear error and a non-zero exit, importing nothing', async () => {
    const unknown = runAdmin(server.dataDir, ['import', '--inbox', 'inb_doesnotexist', folder], ENV);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no inbox with id 'inb_doesnotexist'/);
    const inbox = await createInbox(api);
    const missing = runAdmin(server.dataDir, ['import', '--inbox', inbox.id, path.join(folder, 'eml/one.eml'), path.join(folder, 'nowhere')], ENV);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /nowhere: ENOENT/);
    assert.deepEqual(await listMessages(api, inbox.id), []);
  });

  it('stops at the monthly quota and reports every message after it as refused for that reason', async () => {
    const limited = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, 'quota-three', 'three', ENV).key.key);
    const inbox = await createInbox(limited);
    // One at a time, so the messages after the first refusal are never sent to the pipeline at all.
    const summary = runImport(server, ['--inbox', inbox.id, '--concurrency', '1', path.join(folder, 'eml'), path.join(folder, 'Maildir')]);
    assert.equal(summary.imported, 3, 'nested/three.eml, one.eml and two.eml, in walk order');
    assert.deepEqual(summary.refused.map(({ source, code }) => ({ source: path.relative(folder, source), code })), [
      { source: 'eml/garbage.eml', code: 'not_an_email' },
      { source: 'Maildir/cur/1762246800.M1P1.host:2,S', code: 'quota_reached' },
      { source: 'Maildir/new/1762246900.M2P1.host', code: 'quota_reached' },
    ]);
    assert.equal((await listMessages(limited, inbox.id)).length, 3);
    assert.equal(expectOk<UsageJson>(await limited.get('/v1/usage')).used, 3);
  });

  it('reads only regular files inside the folder named: links (to /etc/passwd and to folders), FIFOs and sockets are refused by reason', async () => {
    const hostile = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-hostile-'));
    const socket = net.createServer();
    try {
      write(hostile, 'real.eml', message({ From: 'a@hostile.test', To: 'qa@hostile.test', Subject: 'The only real one' }, 'hello\n'));
      fs.symlinkSync('/etc/passwd', path.join(hostile, 'passwd.eml'));
      fs.symlinkSync('/etc', path.join(hostile, 'etc'));
      fs.mkdirSync(path.join(hostile, 'Maildir/cur'), { recursive: true });
      fs.symlinkSync('/etc/passwd', path.join(hostile, 'Maildir/cur/1762246800.M1P1.host:2,S'));
      assert.equal(spawnSync('mkfifo', [path.join(hostile, 'fifo.eml')]).status, 0, 'mkfifo');
      await new Promise<void>((resolve) => socket.listen(path.join(hostile, 'socket.eml'), resolve));
      const inbox = await createInbox(api);

      const summary = runImport(server, ['--inbox', inbox.id, hostile, path.join(hostile, 'passwd.eml')]);
      assert.equal(summary.imported, 1);
      assert.deepEqual(summary.refused.map(({ source, code }) => ({ source: path.relative(hostile, source), code })), [
        { source: 'Maildir/cur/1762246800.M1P1.host:2,S', code: 'symbolic_link' },
        { source: 'etc', code: 'symbolic_link' },
        { source: 'fifo.eml', code: 'not_a_regular_file' },
        { source: 'passwd.eml', code: 'symbolic_link' },
        { source: 'socket.eml', code: 'not_a_regular_file' },
        { source: 'passwd.eml', code: 'symbolic_link' },
      ]);
      assert.match(summary.refused[0]!.message, /symbolic link \(not followed\)/);
      assert.match(summary.refused[2]!.message, /not a regular file \(a FIFO\)/);

      const listed = await listMessages(api, inbox.id);
      assert.deepEqual(listed.map((m) => m.subject), ['The only real one']);
      const raw = await api.get(`/v1/messages/${listed[0]!.id}/raw`);
      assert.ok(!raw.bytes.toString().includes('root:'), 'nothing of /etc/passwd was captured');
    } finally {
      await new Promise((resolve) => socket.close(resolve));
      fs.rmSync(hostile, { recursive: true, force: true });
    }
  });
});
