// End to end, both profiles: exact addresses over real SMTP clients. nodemailer sends a quoted local part and UTF-8
// addresses (announcing SMTPUTF8 itself), Python's smtplib sends with SMTPUTF8 as its documentation shows; the API
// shows each address so that it parses back, `to:=` and the other exact forms find exactly the mailbox however it is
// spelled, and the substring operators still find what they found. Hostile addresses get clear refusals, never a 500.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { ApiClient } from '../support/api-client.js';
import type { ErrorEnvelopeJson, InboxWithCredentialsJson, MessageDetailJson, MessageSummaryJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, storedId, type SmtpCredentials } from '../support/smtp.js';
import { buildMessage, RawSmtp } from '../support/raw-smtp.js';
import { mailboxKey } from '../../src/domain/mailbox-key.js';

/**
 * Sends two messages the way a Python application would: an EmailMessage with UTF-8 and quoted addresses through
 * send_message(..., mail_options=['SMTPUTF8']), and raw bytes through sendmail(..., mail_options=['SMTPUTF8']) with a
 * punycode envelope recipient. Over STARTTLS, logged in with the inbox's credentials.
 */
const PYTHON_SENDER = String.raw`
import json, smtplib, ssl, sys
from email.message import EmailMessage
from email import policy

settings = json.load(sys.stdin)
message = EmailMessage(policy=policy.SMTPUTF8)
message["From"] = "Δοκιμή <δοκιμή@παράδειγμα.δοκιμή>"
message["To"] = '"John Smith" <"john smith"@example.test>, ALICE@EXAMPLE.TEST'
message["Subject"] = "python smtputf8"
message.set_content("Grüße from smtplib")
raw = ("From: zoë@bücher.example\r\nTo: Δοκιμή <δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp>\r\nSubject: python sendmail\r\n"
       "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nraw bytes\r\n").encode("utf-8")
with smtplib.SMTP("127.0.0.1", settings["port"], timeout=30) as smtp:
    smtp.ehlo()
    features = {"smtputf8": smtp.has_extn("smtputf8"), "8bitmime": smtp.has_extn("8bitmime")}
    smtp.starttls(context=ssl._create_unverified_context())
    smtp.login(settings["username"], settings["password"])
    refused = smtp.send_message(message, mail_options=["SMTPUTF8"])
    refused_raw = smtp.sendmail('"john smith"@example.test', ["δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp"], raw, mail_options=["SMTPUTF8", "BODY=8BITMIME"])
print(json.dumps({"features": features, "refused": [refused, refused_raw]}))
`;

function sendWithPython(credentials: SmtpCredentials): Promise<{ features: Record<string, boolean>; refused: unknown[] }> {
  return new Promise((resolve, reject) => {
    const child = execFile('python3', ['-c', PYTHON_SENDER], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`python3 failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as { features: Record<string, boolean>; refused: unknown[] });
    });
    child.stdin!.end(JSON.stringify({ port: credentials.port, username: credentials.username, password: credentials.password }));
  });
}

/** The mailboxes an address list (a header's text, or envelope addresses) names, by key: what a reader parses back. */
const mailboxesOf = (...lists: string[]) => lists.flatMap((list) => addressparser(list, { flatten: true })).map((entry) => mailboxKey(entry.address));

describe(`exact addresses over SMTP, read back through the API (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  const ids: Record<string, string> = {};

  before(async function () {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey!);
    inbox = await createInbox(api);
    const credentials = credentialsOf(inbox);
    const named: [string, Mail.Options][] = [
      ['quoted', { from: { name: 'John Smith', address: '"john smith"@example.test' }, to: ['Alice@Example.TEST', '"a@b"@example.test'], cc: 'Zoë <zoë@bücher.example>' }],
      ['utf8', { from: 'app@example.test', to: 'δοκιμή@παράδειγμα.δοκιμή', replyTo: '"john.smith"@example.test' }],
      ['punycode', { from: 'app@example.test', to: 'user@xn--bcher-kva.example' }],
      ['longer', { from: 'app@example.test', to: ['ba@example.test', 'malice@example.test'] }],
      ['other-domain', { from: 'app@example.test', to: 'alice@example.test.evil' }],
      ['sub-address', { from: 'app@example.test', to: 'alice+tag@example.test' }],
      // Cyrillic а (U+0430) in place of the Latin a: another mailbox, however alike it looks.
      ['homograph', { from: 'app@example.test', to: '\u0430lice@example.test' }],
    ];
    const stored = await sendMails(credentials, named.map(([subject, mail]) => ({ ...mail, subject, text: `the ${subject} mail` })));
    named.forEach(([subject], index) => (ids[subject] = stored[index]!));
    const python = await sendWithPython(credentials);
    assert.deepEqual(python.features, { smtputf8: true, '8bitmime': true }, 'EHLO advertises SMTPUTF8 and 8BITMIME');
    assert.deepEqual(python.refused, [{}, {}], 'no recipient was refused');
    for (const subject of ['python smtputf8', 'python sendmail']) {
      const [found] = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?subject=${encodeURIComponent(subject)}`));
      assert.ok(found, `${subject} was stored`);
      ids[subject] = found.id;
    }
  });

  after(async function () {
    await server?.stop();
  });

  const found = async (q: string) => {
    const listed = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent(q)}`), 200, q);
    return listed.map((message) => Object.entries(ids).find(([, id]) => id === message.id)?.[0] ?? message.id).sort();
  };
  const summary = async (name: string) => expectOk<MessageDetailJson>(await api.get(`/v1/messages/${ids[name]}`));

  it('shows each envelope and header address as sent, in a form that parses back to the mailbox', async () => {
    const quoted = await summary('quoted');
    assert.equal(quoted.envelope_from, '"john smith"@example.test');
    // nodemailer lower-cases the domains it sends to; the local part is as written.
    assert.deepEqual(quoted.recipients, ['Alice@example.test', '"a@b"@example.test', 'zoë@bücher.example']);
    assert.equal(quoted.from, '"John Smith" <"john smith"@example.test>');
    assert.deepEqual(mailboxesOf(quoted.from, quoted.envelope_from), ['john smith@example.test', 'john smith@example.test']);
    assert.deepEqual(mailboxesOf(quoted.to), ['alice@example.test', 'a@b@example.test'], 'the @ inside the quotes stays in the local part');
    assert.deepEqual(mailboxesOf(...quoted.recipients), ['alice@example.test', 'a@b@example.test', 'zoë@xn--bcher-kva.example']);

    const utf8 = await summary('utf8');
    assert.deepEqual(utf8.recipients, ['δοκιμή@παράδειγμα.δοκιμή']);
    assert.equal(utf8.to, 'δοκιμή@παράδειγμα.δοκιμή');

    const python = await summary('python smtputf8');
    assert.equal(python.from, '"Δοκιμή" <δοκιμή@παράδειγμα.δοκιμή>');
    assert.deepEqual(mailboxesOf(python.to), ['john smith@example.test', 'alice@example.test']);
    assert.deepEqual(python.recipients, ['"john smith"@example.test', 'ALICE@EXAMPLE.TEST']);
    const raw = await summary('python sendmail');
    assert.equal(raw.envelope_from, '"john smith"@example.test');
    assert.deepEqual(raw.recipients, ['δοκιμή@παράδειγμα.δοκιμή'], 'the punycode envelope domain is shown in Unicode');
  });

  it('finds exactly the mailbox with to:=, whatever its case and quoting, where to: finds every address containing it', async () => {
    assert.deepEqual(await found('to:=alice@example.test'), ['python smtputf8', 'quoted']);
    assert.deepEqual(await found('to:=ALICE@example.TEST'), ['python smtputf8', 'quoted']);
    assert.deepEqual(await found('to:alice@example.test'), ['other-domain', 'python smtputf8', 'quoted', 'longer'].sort(), 'substring search finds malice@ and .evil too');
    assert.deepEqual(await found('to:=malice@example.test'), ['longer']);
    assert.deepEqual(await found('to:=alice+tag@example.test'), ['sub-address']);
    assert.deepEqual(await found('to:="john smith"@example.test'), ['python smtputf8']);
    assert.deepEqual(await found('from:="John Smith"@EXAMPLE.test'), ['python sendmail', 'quoted'], 'From header or envelope sender');
    assert.deepEqual(await found('to:="a@b"@example.test'), ['quoted']);
    assert.deepEqual(await found('reply-to:=john.smith@example.test'), ['utf8'], 'the quotes of a dot-atom change nothing');
    assert.deepEqual(await found('to-header:=alice@example.test cc:=zoë@bücher.example'), ['quoted']);
  });

  it('takes an internationalised domain and its punycode for one, and a homograph for another mailbox', async () => {
    assert.deepEqual(await found('to:=δοκιμή@παράδειγμα.δοκιμή'), ['python sendmail', 'utf8']);
    assert.deepEqual(await found('to:=ΔΟΚΙΜΉ@xn--hxajbheg2az3al.xn--jxalpdlp'), ['python sendmail', 'utf8']);
    assert.deepEqual(await found('from:=δοκιμή@παράδειγμα.δοκιμή'), ['python smtputf8']);
    assert.deepEqual(await found('to:=user@bücher.example'), ['punycode']);
    assert.deepEqual(await found('cc:=zoë@xn--bcher-kva.example'), ['quoted']);
    assert.deepEqual(await found('from:=zoë@bücher.example'), ['python sendmail']);
    assert.deepEqual(await found('to:=alice@example.test -to:=\u0430lice@example.test'), ['python smtputf8', 'quoted']);
    assert.deepEqual(await found('to:=\u0430lice@example.test'), ['homograph']);
  });

  it('counts, waits for and explains exact terms as it lists them', async () => {
    const count = expectOk<{ messages: number }>(await api.get(`/v1/inboxes/${inbox.id}/messages/count?q=${encodeURIComponent('to:=alice@example.test')}`));
    assert.equal(count.messages, 2);
    const waited = expectOk<MessageDetailJson>(await api.get(`/v1/inboxes/${inbox.id}/messages/wait?q=${encodeURIComponent('to:="John Smith"@example.test')}&timeout=5`));
    assert.equal(waited.id, ids['python smtputf8']);
    const timedOut = await api.get<ErrorEnvelopeJson>(`/v1/inboxes/${inbox.id}/messages/wait?q=${encodeURIComponent('to:=Nobody@Example.test')}&timeout=0.2`);
    expectError(timedOut, 404, 'wait_timeout');
    const explain = timedOut.json.error.explain!;
    assert.deepEqual(explain.terms, ['to:=nobody@example.test']);
    assert.ok(explain.recent.length > 0 && explain.recent.every((message) => message.failed_terms.includes('to:=nobody@example.test')));
  });

  it('matches arriving mail by the same keys: a tag rule, and a wait open while it arrives', async () => {
    expectOk(await api.post('/v1/tag-rules', { inbox_id: inbox.id, query: 'to:="Late Arrival"@example.test', tags: ['late'] }), 201);
    const waiting = api.get(`/v1/inboxes/${inbox.id}/messages/wait?q=${encodeURIComponent('to:="late arrival"@EXAMPLE.test')}&timeout=20`);
    const [id] = await sendMails(credentialsOf(inbox), [{ from: 'app@example.test', to: '"Late Arrival"@example.test', subject: 'late', text: 'x' }]);
    const arrived = expectOk<MessageDetailJson>(await waiting);
    assert.equal(arrived.id, id);
    assert.deepEqual(arrived.tags, ['late']);
    assert.deepEqual(arrived.recipients, ['"Late Arrival"@example.test']);
  });

  it('refuses queries that name no address with 400 invalid_query, never a 500', async () => {
    for (const q of ['to:=alice', 'to:=a\u0000b@example.test', `to:=${'a'.repeat(600)}@example.test`, 'subject:=x', 'to:=']) {
      expectError(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent(q)}`), 400, 'invalid_query', q);
    }
  });

  it('answers hostile paths on SMTP with clear refusals (no SMTPUTF8, a control character, a 2,000-character local part) and takes quoted ones', async () => {
    const client = await RawSmtp.login(credentialsOf(inbox));
    try {
      const message = buildMessage(['From: app@example.test', 'To: δοκιμή@παράδειγμα.δοκιμή', 'Subject: no smtputf8'], 'body');
      const undeclared = await client.transaction({ from: 'app@example.test', to: ['δοκιμή@παράδειγμα.δοκιμή'] }, message);
      assert.deepEqual([undeclared.code, undeclared.enhanced], [553, '5.6.7'], undeclared.text);
      await client.expect('RSET', 250);
      const sender = await client.command('MAIL FROM:<zoë@bücher.example>');
      assert.deepEqual([sender.code, sender.enhanced], [553, '5.6.7'], 'at MAIL FROM too');
      await client.expect('RSET', 250);
      await client.expect('MAIL FROM:<app@example.test>', 250);
      for (const path of ['<a\u0000b@example.test>', '<"a\u0001b"@example.test>', `<${'a'.repeat(2000)}@example.test>`, `<"${'a '.repeat(1000)}"@example.test>`, '<"unclosed@example.test>']) {
        const refused = await client.command(`RCPT TO:${path}`);
        assert.equal(refused.code, 501, `${JSON.stringify(path.slice(0, 40))}: ${refused.code} ${refused.text}`);
      }
      await client.expect('RCPT TO:<"john smith"@example.test>', 250);
      await client.expect('RSET', 250);
      // A parameter said twice alike counts once (Python's send_message adds SMTPUTF8 to the caller's own); said twice otherwise, 501.
      await client.expect('MAIL FROM:<app@example.test> SMTPUTF8 BODY=8BITMIME SMTPUTF8 BODY=8bitmime', 250);
      await client.expect('RSET', 250);
      await client.expect('MAIL FROM:<app@example.test> BODY=7BIT BODY=8BITMIME', 501);
      await client.expect('RSET', 250);
      // A header naming an address of 2,000 characters, past what is keyed: stored, its other addresses matched exactly.
      const long = buildMessage(['From: app@example.test', `To: ${'a'.repeat(2000)}@example.test, "c@d"@example.test`, 'Subject: long'], 'body');
      const declared = await client.transaction({ from: '"a b"@example.test', to: ['δοκιμή@παράδειγμα.δοκιμή', '"c@d"@example.test'] }, long, 'SMTPUTF8');
      assert.equal(declared.code, 250, declared.text);
      assert.deepEqual(await found('from:="a b"@example.test to-header:="c@d"@example.test'), [storedId(`250 ${declared.text}`)]);
      assert.deepEqual(await found(`to-header:${'a'.repeat(100)}`), [storedId(`250 ${declared.text}`)], 'substring search still reads it');
    } finally {
      await client.quit();
    }
  });
});
