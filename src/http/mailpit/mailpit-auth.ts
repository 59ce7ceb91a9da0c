// Who a Mailpit-compatible request is (the API at /api/v1 and /view, and the /api/events stream): one inbox of one
// workspace, named by the request, with an API key of that workspace; or the operator's open inbox, for a request
// that carries no credentials at all when one is configured.
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../errors.js';
import type { Access, Inbox, Workspace } from '../../domain/types.js';
import { authenticateApiKey } from '../../services/accounts/api-keys.js';
import type { InboxService } from '../../services/mail/inboxes.js';
import type { MetadataStore } from '../../storage/ports.js';

/** Names the inbox of a request authenticated with `Authorization: Bearer <API key>` (Basic names it as its user). */
export const MAILPIT_INBOX_HEADER = 'x-sandbox-inbox';

/** The realm Basic challenges name; Mailpit's clients answer any realm. */
const BASIC_CHALLENGE = 'Basic realm="mail-sandbox", charset="UTF-8"';

/** Longest inbox reference looked up: an id, or a name of at most 100 characters. */
const MAX_INBOX_REFERENCE = 200;

/** A Mailpit request's principal: everything it reaches is this inbox's. */
export interface MailpitAccess {
  workspace: Workspace;
  inbox: Inbox;
  /** read: nothing may be changed (PUT, DELETE and POST are refused); read_write: everything of this inbox. */
  access: Access;
  /** key: an API key of the inbox's workspace; open_inbox: no credentials, the inbox the operator opened. */
  via: 'key' | 'open_inbox';
}

export interface MailpitAuthDeps {
  metadata: MetadataStore;
  inboxes: Pick<InboxService, 'findByIdOrName'>;
  now: () => Date;
  /**
   * The operator's open inbox (SMTP without AUTH, this API without credentials), or null when none is configured:
   * only then does a request without credentials get an answer other than 401.
   */
  openInbox: () => Promise<Inbox | null>;
}

/** Every refusal of credentials is a 401 with a Basic challenge, so a browser or client knows to ask for them. */
const unauthorized = (message: string) => new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': BASIC_CHALLENGE } });

function single(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : value ?? '').trim();
}

/** User and password of a Basic Authorization header; the user (the inbox) ends at the first colon. */
function basicCredentials(encoded: string): { user: string; password: string } {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || colon === -1) {
    throw unauthorized('the Basic credentials are not base64 of "<inbox id or name>:<API key>"');
  }
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export class MailpitAuthenticator {
  constructor(private readonly deps: MailpitAuthDeps) {}

  /**
   * The inbox and access a request's headers give. A key of one workspace never reaches another's inbox: the inbox is
   * looked up in the key's workspace only, so an inbox of that name elsewhere is as unknown as a missing one.
   */
  async authenticate(headers: IncomingHttpHeaders): Promise<MailpitAccess> {
    const authorization = single(headers, 'authorization');
    const namedInbox = single(headers, MAILPIT_INBOX_HEADER);
    if (authorization === '') return this.openInboxAccess(namedInbox);
    const basic = /^Basic\s+(\S+)$/i.exec(authorization);
    if (basic) {
      const { user, password } = basicCredentials(basic[1]!);
      if (namedInbox !== '' && namedInbox !== user) throw unauthorized(`the Basic user names inbox '${user}' but ${MAILPIT_INBOX_HEADER} names '${namedInbox}'`);
      return this.keyAccess(`Bearer ${password}`, user);
    }
    if (/^Bearer\s/i.test(authorization)) {
      if (namedInbox === '') throw unauthorized(`with a bearer key, name the inbox (its id or name) in the ${MAILPIT_INBOX_HEADER} header, or use Basic with the inbox as the user`);
      return this.keyAccess(authorization, namedInbox);
    }
    throw unauthorized('the Authorization header must be Basic (user: the inbox id or name, password: an API key) or "Bearer <API key>"');
  }

  private async keyAccess(bearer: string, inboxReference: string): Promise<MailpitAccess> {
    const key = await authenticateApiKey(this.deps.metadata, bearer, this.deps.now()).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'unauthorized') throw unauthorized(error.message);
      throw error;
    });
    if (inboxReference === '' || inboxReference.length > MAX_INBOX_REFERENCE) {
      throw unauthorized(`name the inbox by its id or name (1 to ${MAX_INBOX_REFERENCE} characters) as the Basic user`);
    }
    const inbox = await this.deps.inboxes.findByIdOrName(key.workspace.id, inboxReference);
    if (!inbox) throw unauthorized(`this key's workspace has no inbox with id or name '${inboxReference}'`);
    return { workspace: key.workspace, inbox, access: key.access, via: 'key' };
  }

  private async openInboxAccess(namedInbox: string): Promise<MailpitAccess> {
    const open = await this.deps.openInbox();
    if (!open) throw unauthorized('credentials are required: HTTP Basic with the inbox id or name as the user and an API key as the password');
    // Without credentials only the open inbox is reachable; naming any other one needs a key.
    if (namedInbox !== '' && namedInbox !== open.id && namedInbox !== open.name) {
      throw unauthorized(`without credentials only the open inbox answers; inbox '${namedInbox}' needs an API key`);
    }
    const workspace = await this.deps.metadata.getWorkspace(open.workspaceId);
    if (!workspace) throw new AppError('not_configured', 'the open inbox\'s workspace no longer exists');
    return { workspace, inbox: open, access: 'read_write', via: 'open_inbox' };
  }
}
