// Inboxes: list, read, create (with the SMTP settings to send to it), clear and delete.
import { dataOf, idOf, type ApiClient, type InboxRef, type Schemas } from './api.js';

export type Inbox = Schemas['Inbox'];
/** An inbox with its SMTP settings; `smtp.password` is shown only in the answer that creates (or rotates) it. */
export type InboxWithCredentials = Schemas['InboxWithCredentials'];

/** Options of a single call: `signal` aborts it (the call rejects with the signal's reason). */
export interface CallOptions {
  signal?: AbortSignal;
}

export class Inboxes {
  /** @internal */
  constructor(private readonly api: ApiClient) {}

  /** Every inbox of the workspace, oldest first. */
  list(options: CallOptions = {}): Promise<Inbox[]> {
    return dataOf(this.api.GET('/v1/inboxes', { signal: options.signal }));
  }

  /** One inbox; 404 `not_found` when the workspace has none by that id. */
  get(inbox: InboxRef, options: CallOptions = {}): Promise<Inbox> {
    return dataOf(this.api.GET('/v1/inboxes/{id}', { params: { path: { id: idOf(inbox) } }, signal: options.signal }));
  }

  /**
   * Creates an inbox and returns it with its SMTP settings (host, ports, username and the password, shown only
   * here). Without a `name` it gets a random one (names are unique in a workspace: 409 `already_exists` otherwise).
   * Needs a `read_write` key.
   *
   * @example
   * ```ts
   * const inbox = await sandbox.inboxes.create({ name: 'sign-up test' });
   * const transport = nodemailer.createTransport({
   *   host: inbox.smtp.host, port: inbox.smtp.ports[0],
   *   auth: { user: inbox.smtp.username, pass: inbox.smtp.password },
   * });
   * ```
   */
  create(options: { name?: string } & CallOptions = {}): Promise<InboxWithCredentials> {
    return dataOf(this.api.POST('/v1/inboxes', { body: { name: options.name ?? randomInboxName() }, signal: options.signal }));
  }

  /** Deletes every message of the inbox, keeping the inbox and its SMTP credentials. */
  clear(inbox: InboxRef, options: CallOptions = {}): Promise<{ deleted_messages: number }> {
    return dataOf(this.api.DELETE('/v1/inboxes/{id}/messages', { params: { path: { id: idOf(inbox) } }, signal: options.signal }));
  }

  /** Deletes the inbox with all of its messages (and the webhooks scoped to it). */
  delete(inbox: InboxRef, options: CallOptions = {}): Promise<{ deleted_messages: number }> {
    return dataOf(this.api.DELETE('/v1/inboxes/{id}', { params: { path: { id: idOf(inbox) } }, signal: options.signal }));
  }
}

/** `inbox-` and 12 random hex digits: unlikely to meet another name, and within the API's 100 characters. */
function randomInboxName(): string {
  return `inbox-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
