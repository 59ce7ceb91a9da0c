// Real SMTP sending through nodemailer, as an application under test would do it.
import { strict as assert } from 'node:assert';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { InboxWithCredentialsJson } from './api-json.js';

export interface SmtpCredentials {
  port: number;
  username: string;
  password: string;
}

/** The SMTP login of a created inbox, on its STARTTLS-capable plain port (the first of `smtp.ports`). */
export function credentialsOf(inbox: Pick<InboxWithCredentialsJson, 'smtp'>): SmtpCredentials {
  const port = inbox.smtp.ports[0];
  assert.ok(port, `the inbox has no SMTP port: ${JSON.stringify(inbox.smtp.ports)}`);
  return { port, username: inbox.smtp.username, password: inbox.smtp.password };
}

export function smtpTransport(credentials: SmtpCredentials, options: Partial<SMTPTransport.Options> = {}) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: credentials.port,
    secure: false,
    auth: { user: credentials.username, pass: credentials.password },
    tls: { rejectUnauthorized: false },
    ...options,
  });
}

/** The stored message's id, from the "250 2.6.0 Message stored as msg_..." reply to DATA. */
export function storedId(reply: string): string {
  const match = /^250 .*Message stored as (msg_[0-9a-z]+)(?:\s|$)/.exec(reply);
  assert.ok(match, `expected a 250 "Message stored as <id>" reply, got: ${reply}`);
  return match[1]!;
}

/**
 * Sends the mails one after another over one pooled connection and returns the stored ids in send order, read
 * from each 250 reply; the 250 means the message is stored, so no polling is needed afterwards.
 */
export async function sendMails(credentials: SmtpCredentials, mails: Mail.Options[]): Promise<string[]> {
  const transport = smtpTransport(credentials, { pool: true });
  const ids: string[] = [];
  try {
    for (const mail of mails) ids.push(storedId(String((await transport.sendMail(mail)).response)));
  } finally {
    transport.close();
  }
  return ids;
}

/** Sends a raw RFC 5322 message unchanged, with an explicit envelope. */
export async function sendRaw(credentials: SmtpCredentials, raw: string | Buffer, envelope: { from: string; to: string[] }, options: Partial<SMTPTransport.Options> = {}) {
  const transport = smtpTransport(credentials, options);
  try {
    return await transport.sendMail({ envelope, raw });
  } finally {
    transport.close();
  }
}

/** The reply of an SMTP exchange that nodemailer reports as a failure; fails the test if it succeeded. */
export async function rejection(sending: Promise<unknown>): Promise<{ code: number; response: string }> {
  try {
    await sending;
  } catch (error) {
    const failure = error as { responseCode?: number; response?: string; message: string };
    assert.ok(failure.responseCode, `expected an SMTP error reply, got a client error: ${failure.message}`);
    return { code: failure.responseCode, response: failure.response ?? '' };
  }
  return assert.fail('the server accepted what it should have refused');
}
