// Who a Mailpit request is: Basic with the inbox as the user, a bearer key with X-Sandbox-Inbox, or the open inbox
// without credentials; a key never reaches another workspace's inbox, and every refusal is a 401 with a challenge.
import { strict as assert } from 'node:assert';
import { AppError } from '../../../src/errors.js';
import { hashSecret } from '../../../src/domain/secrets.js';
import { defaultInboxSettings } from '../../../src/domain/inbox-settings.js';
import type { ApiKeyRecord, Inbox, Workspace } from '../../../src/domain/types.js';
import { MailpitAuthenticator, type MailpitAuthDeps } from '../../../src/http/mailpit/mailpit-auth.js';

const workspace = (id: string): Workspace => ({ id, name: id, planName: 'free', createdAt: new Date(0) });
const inbox = (workspaceId: string, id: string, name: string): Inbox => ({
  id, workspaceId, name, smtpUsername: `u_${id}`, smtpPasswordHash: '', createdAt: new Date(0), settings: defaultInboxSettings(),
});
const key = (workspaceId: string, secret: string, access: ApiKeyRecord['access']): ApiKeyRecord => ({
  id: `key_${secret}`, workspaceId, access, name: null, prefix: secret.slice(0, 12), keyHash: hashSecret(secret), createdAt: new Date(0), lastUsedAt: new Date(), revokedAt: null,
});

const KEY_A = 'sbx_api_aaaaaaaa';
const KEY_B = 'sbx_api_bbbbbbbb';
const READ_A = 'sbx_api_rrrrrrrr';
const inboxes = [inbox('ws_a', 'inb_a', 'shared'), inbox('ws_b', 'inb_b', 'shared'), inbox('ws_a', 'inb_open', 'open')];
const keys = [key('ws_a', KEY_A, 'read_write'), key('ws_b', KEY_B, 'read_write'), key('ws_a', READ_A, 'read')];

function authenticator(open: Inbox | null = null): MailpitAuthenticator {
  const metadata = {
    findApiKeyByHash: async (hash: string) => keys.find((record) => record.keyHash === hash) ?? null,
    getWorkspace: async (id: string) => workspace(id),
    touchApiKey: async () => undefined,
  } as unknown as MailpitAuthDeps['metadata'];
  return new MailpitAuthenticator({
    metadata,
    inboxes: { findByIdOrName: async (workspaceId, reference) => inboxes.find((i) => i.workspaceId === workspaceId && (i.id === reference || i.name === reference)) ?? null },
    now: () => new Date(),
    openInbox: async () => open,
  });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function refused(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    assert.ok(error instanceof AppError && error.code === 'unauthorized', String(error));
    assert.match(error.headers['WWW-Authenticate'] ?? '', /^Basic realm=/);
    return error.message;
  }
  return assert.fail('authenticated');
}

describe('Mailpit authentication', () => {
  it('takes Basic with the inbox id or name as the user, in the key\'s own workspace', async () => {
    const byName = await authenticator().authenticate({ authorization: basic('shared', KEY_B) });
    assert.deepEqual([byName.workspace.id, byName.inbox.id, byName.access, byName.via], ['ws_b', 'inb_b', 'read_write', 'key']);
    assert.equal((await authenticator().authenticate({ authorization: basic('inb_a', KEY_A) })).inbox.id, 'inb_a');
    assert.equal((await authenticator().authenticate({ authorization: basic('shared', READ_A) })).access, 'read');
  });

  it('never reaches another workspace\'s inbox, whatever the user names', async () => {
    assert.match(await refused(authenticator().authenticate({ authorization: basic('inb_b', KEY_A) })), /no inbox with id or name 'inb_b'/);
    await refused(authenticator().authenticate({ authorization: `Bearer ${KEY_A}`, 'x-sandbox-inbox': 'inb_b' }));
  });

  it('takes a bearer key with the inbox named in X-Sandbox-Inbox, and refuses one without it', async () => {
    assert.equal((await authenticator().authenticate({ authorization: `Bearer ${KEY_A}`, 'x-sandbox-inbox': 'shared' })).inbox.id, 'inb_a');
    assert.match(await refused(authenticator().authenticate({ authorization: `Bearer ${KEY_A}` })), /X-Sandbox-Inbox/i);
    await refused(authenticator().authenticate({ authorization: basic('shared', KEY_A), 'x-sandbox-inbox': 'inb_open' }));
  });

  it('refuses malformed and wrong credentials', async () => {
    for (const authorization of ['Basic', 'Basic %%%', basic('shared', 'sbx_api_unknown'), basic('shared', ''), basic('', KEY_A), 'Negotiate x', basic('x'.repeat(201), KEY_A)]) {
      await refused(authenticator().authenticate({ authorization }));
    }
  });

  it('answers a request without credentials only with the open inbox, and only when there is one', async () => {
    await refused(authenticator().authenticate({}));
    const open = inboxes[2]!;
    const access = await authenticator(open).authenticate({});
    assert.deepEqual([access.workspace.id, access.inbox.id, access.access, access.via], ['ws_a', 'inb_open', 'read_write', 'open_inbox']);
    assert.equal((await authenticator(open).authenticate({ 'x-sandbox-inbox': 'open' })).inbox.id, 'inb_open');
    await refused(authenticator(open).authenticate({ 'x-sandbox-inbox': 'inb_a' }));
    assert.equal((await authenticator(open).authenticate({ authorization: basic('inb_a', KEY_A) })).inbox.id, 'inb_a', 'credentials still decide when given');
  });
});
