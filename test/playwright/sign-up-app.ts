// A tiny sign-up site for the fixture's own test, standing in for the application under test: it asks for an email
// address, mails a six-digit code to it with nodemailer over the SMTP settings it is given, and says "verified" only
// when that code is typed back. Plain forms, no script.
import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import type { MailboxSmtp } from 'mail-sandbox/playwright';

export interface SignUpApp {
  url: string;
  close(): Promise<void>;
}

export async function startSignUpApp(smtp: MailboxSmtp): Promise<SignUpApp> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: false,
    auth: { user: smtp.username, pass: smtp.password },
    // The service's certificate is self-signed unless it is given one.
    tls: { rejectUnauthorized: false },
  });
  /** The code mailed to each address, until it is typed back. */
  const pending = new Map<string, string>();

  const server = http.createServer((request, response) => {
    void (async () => {
      const form = request.method === 'POST' ? new URLSearchParams(await bodyOf(request)) : new URLSearchParams();
      const email = form.get('email') ?? '';
      if (request.method === 'GET' && request.url === '/') {
        send(response, 200, 'Sign up', `<form method="post" action="/sign-up">
          <label>Email <input type="email" name="email" required></label> <button>Sign up</button></form>`);
      } else if (request.method === 'POST' && request.url === '/sign-up') {
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        pending.set(email, code);
        await transport.sendMail({
          from: 'Acme <no-reply@acme.test>',
          to: email,
          subject: 'Confirm your Acme account',
          text: `Welcome to Acme!\n\nYour verification code is ${code}. It expires in 10 minutes.\n`,
        });
        send(response, 200, 'Check your email', `<p>We sent a code to ${escape(email)}.</p>${codeForm(email)}`);
      } else if (request.method === 'POST' && request.url === '/verify') {
        if (pending.has(email) && pending.get(email) === form.get('code')) {
          pending.delete(email);
          send(response, 200, 'verified', `<p>${escape(email)} is verified.</p>`);
        } else {
          send(response, 400, 'That code is not right', codeForm(email));
        }
      } else {
        send(response, 404, 'Not found', '');
      }
    })().catch((error: unknown) => send(response, 500, 'Error', escape(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      transport.close();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

const codeForm = (email: string) => `<form method="post" action="/verify"><input type="hidden" name="email" value="${escape(email)}">
  <label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label> <button>Verify</button></form>`;

function send(response: http.ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
  response.end(`<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1>${body}</html>`);
}

async function bodyOf(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
