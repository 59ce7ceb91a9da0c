// Real SMTP sending through nodemailer, as an application under test would do it.
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

export interface SmtpCredentials {
  port: number;
  username: string;
  password: string;
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

/** Sends a raw RFC 5322 message unchanged, with an explicit envelope. */
export async function sendRaw(credentials: SmtpCredentials, raw: string | Buffer, envelope: { from: string; to: string[] }, options: Partial<SMTPTransport.Options> = {}) {
  const transport = smtpTransport(credentials, options);
  try {
    return await transport.sendMail({ envelope, raw });
  } finally {
    transport.close();
  }
}
