// An inbox's SMTP settings as an API answer gives them when it creates an inbox or rotates its password (the only
// time the password is shown): each value with a Copy button, and snippets for nodemailer and Python's smtplib.
import type { Schemas } from '../api.js';
import { CopyBlock, CopyField } from './copy.js';

type Smtp = Schemas['InboxWithCredentials']['smtp'];

/** A string literal for both JavaScript and Python: JSON's escaping is valid in each. */
const literal = (value: string | number) => JSON.stringify(String(value));

function nodemailerSnippet(smtp: Smtp): string {
  return `import nodemailer from 'nodemailer';

const transport = nodemailer.createTransport({
  host: ${literal(smtp.host)},
  port: ${smtp.ports[0]}, // STARTTLS when offered; port ${smtp.ports[1]} with secure: true for implicit TLS
  auth: { user: ${literal(smtp.username)}, pass: ${literal(smtp.password)} },
  tls: { rejectUnauthorized: false }, // the certificate is self-signed unless the server was given one
});

await transport.sendMail({ from: 'app@example.com', to: 'user@example.com', subject: 'Hello', text: 'It works.' });
`;
}

function smtplibSnippet(smtp: Smtp): string {
  return `import smtplib, ssl
from email.message import EmailMessage

message = EmailMessage()
message["From"], message["To"], message["Subject"] = "app@example.com", "user@example.com", "Hello"
message.set_content("It works.")

context = ssl._create_unverified_context()  # the certificate is self-signed unless the server was given one
with smtplib.SMTP(${literal(smtp.host)}, ${smtp.ports[0]}) as server:
    server.starttls(context=context)
    server.login(${literal(smtp.username)}, ${literal(smtp.password)})
    server.send_message(message)
`;
}

export function SmtpSettings(props: { inboxName: string; smtp: Smtp }) {
  const { smtp } = props;
  return (
    <section class="card stack" aria-labelledby="smtp-settings-heading">
      <h2 id="smtp-settings-heading">SMTP settings for {props.inboxName}</h2>
      <p class="lead">Copy the password now: it is shown only once.</p>
      <div class="copy-grid">
        <CopyField id="smtp-host" label="Host" value={smtp.host} />
        <CopyField id="smtp-port" label="Port (STARTTLS)" value={String(smtp.ports[0])} />
        <CopyField id="smtp-tls-port" label="Port (implicit TLS)" value={String(smtp.ports[1])} />
        <CopyField id="smtp-username" label="Username" value={smtp.username} />
        <CopyField id="smtp-password" label="Password" value={smtp.password} />
      </div>
      {smtp.note ? <p class="hint">{smtp.note}</p> : null}
      <CopyBlock id="snippet-nodemailer" label="nodemailer snippet" value={nodemailerSnippet(smtp)} />
      <CopyBlock id="snippet-smtplib" label="Python smtplib snippet" value={smtplibSnippet(smtp)} />
    </section>
  );
}
