// The open inbox's lookup: by id or by workspace and name, fresh from storage, and a refusal that names why.
import { strict as assert } from 'node:assert';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { defaultInboxSettings } from '../../src/domain/inbox-settings.js';
import type { Inbox, Workspace } from '../../src/domain/types.js';
import { OpenInbox, type OpenInboxStore } from '../../src/services/mail/open-inbox.js';

const WS = 'ws_01jdz6xq0v3m8r5t7y9a2b4c6d';
const OTHER_WS = 'ws_01jdz6xq0v3m8r5t7y9a2b4c6e';
const INBOX = 'inb_01jdz6xq0v3m8r5t7y9a2b4c6d';

const workspace = (id: string, name: string): Workspace => ({ id, name, planName: 'unlimited', createdAt: new Date(0) });
const inbox = (id: string, workspaceId: string, name: string): Inbox => ({
  id, workspaceId, name, smtpUsername: `sbx-${id}`, smtpPasswordHash: 'x', createdAt: new Date(0), settings: defaultInboxSettings(),
});

/** An in-memory store that counts its reads. */
function store(workspaces: Workspace[], inboxes: Inbox[]): OpenInboxStore & { reads: number } {
  const counted = <T>(value: T) => {
    fake.reads++;
    return Promise.resolve(value);
  };
  const fake = {
    reads: 0,
    findInboxById: (id: string) => counted(inboxes.find((i) => i.id === id) ?? null),
    getInbox: (workspaceId: string, id: string) => counted(inboxes.find((i) => i.id === id && i.workspaceId === workspaceId) ?? null),
    getWorkspace: (id: string) => counted(workspaces.find((w) => w.id === id) ?? null),
    listWorkspaces: () => counted(workspaces),
    listInboxes: (workspaceId: string) => counted(inboxes.filter((i) => i.workspaceId === workspaceId)),
  };
  return fake;
}

const openInbox = (value: string, backing: OpenInboxStore, now?: () => number) => new OpenInbox(loadConfig({ SANDBOX_OPEN_INBOX: value }).openInbox!, backing, now);

const refusedWith = (message: RegExp) => (error: unknown) => error instanceof AppError && error.code === 'not_found' && message.test(error.message);

describe('OpenInbox', () => {
  it('finds the inbox by id, whichever workspace holds it', async () => {
    const backing = store([workspace(WS, 'default')], [inbox(INBOX, WS, 'mailpit')]);
    assert.equal((await openInbox(INBOX, backing).current()).workspaceId, WS);
  });

  it('finds the inbox by workspace id or name and inbox name, the name in any case', async () => {
    const backing = store([workspace(WS, 'default'), workspace(OTHER_WS, 'other')], [inbox(INBOX, WS, 'MailPit'), inbox('inb_2', OTHER_WS, 'mailpit')]);
    assert.equal((await openInbox('default/mailpit', backing).current()).id, INBOX);
    assert.equal((await openInbox(`${WS}/mailpit`, backing).current()).id, INBOX);
    assert.equal((await openInbox('other/mailpit', backing).current()).id, 'inb_2');
  });

  it('says why there is no inbox: none with the id, no such workspace, two workspaces of the name, no inbox of the name', async () => {
    const backing = store([workspace(WS, 'twin'), workspace(OTHER_WS, 'twin')], [inbox(INBOX, WS, 'mailpit')]);
    await assert.rejects(openInbox('inb_01jdz6xq0v3m8r5t7y9a2b4c6f', backing).current(), refusedWith(/^The open inbox SANDBOX_OPEN_INBOX=inb_\w+ does not exist: no inbox has the id/));
    await assert.rejects(openInbox('nowhere/mailpit', backing).current(), refusedWith(/no workspace has the id or name 'nowhere'/));
    await assert.rejects(openInbox('twin/mailpit', backing).current(), refusedWith(/2 workspaces are named 'twin'; name the workspace by its id/));
    await assert.rejects(openInbox(`${WS}/other`, backing).current(), refusedWith(/workspace '\S+' has no inbox named 'other'/));
  });

  it('sees a deletion at once, and reuses "missing" for a second so a refusal loop does not scan storage each time', async () => {
    const inboxes = [inbox(INBOX, WS, 'mailpit')];
    const backing = store([workspace(WS, 'default')], inboxes);
    let clock = 0;
    const open = openInbox('default/mailpit', backing, () => clock);
    await open.current();
    inboxes.pop();
    await assert.rejects(open.current(), refusedWith(/has no inbox named 'mailpit'/));
    const reads = backing.reads;
    await assert.rejects(open.current(), refusedWith(/has no inbox named 'mailpit'/));
    assert.equal(backing.reads, reads, 'the memo answered');
    inboxes.push(inbox('inb_new', WS, 'mailpit'));
    clock = 1000;
    assert.equal((await open.current()).id, 'inb_new', 'an inbox made again under the name is found once the memo lapses');
  });

  it('makes the inbox it names by workspace and name when that workspace has none, and never one named by id or of a missing workspace', async () => {
    const inboxes: Inbox[] = [];
    const backing = store([workspace(WS, 'default')], inboxes);
    const made: string[] = [];
    const create = async (workspaceId: string, name: string) => {
      made.push(`${workspaceId}/${name}`);
      inboxes.push(inbox('inb_made', workspaceId, name));
    };
    const ensured = await openInbox('default/mailpit', backing).ensure(create);
    assert.deepEqual([ensured.inbox.id, ensured.created, made], ['inb_made', true, [`${WS}/mailpit`]]);
    assert.deepEqual(await openInbox('default/mailpit', backing).ensure(create).then(({ created }) => created), false, 'found the next time');
    await assert.rejects(openInbox(INBOX, backing).ensure(create), refusedWith(/no inbox has the id/));
    await assert.rejects(openInbox('nowhere/mailpit', backing).ensure(create), refusedWith(/no workspace has the id or name 'nowhere'/));
    assert.equal(made.length, 1, 'nothing made for an id or a missing workspace');
  });

  it('takes an inbox another node made meanwhile (already_exists) as made', async () => {
    const inboxes: Inbox[] = [];
    const backing = store([workspace(WS, 'default')], inboxes);
    const ensured = await openInbox('default/mailpit', backing).ensure(async (workspaceId, name) => {
      inboxes.push(inbox('inb_theirs', workspaceId, name));
      throw new AppError('already_exists', `an inbox named '${name}' already exists in this workspace`);
    });
    assert.equal(ensured.inbox.id, 'inb_theirs');
  });
});
