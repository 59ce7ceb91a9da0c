// The workspace's inboxes with their message and unread counts: create one (its SMTP settings shown once), rotate its
// password, clear it, delete it (each destructive step confirmed in a dialog). Each name links to the inbox's messages,
// each row to the inbox's settings, and an inbox whose chaos is armed says so.
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { ChaosChip, SettingsLink } from '../components/inbox/inbox-settings-links.js';
import { SmtpSettings } from '../components/smtp-settings.js';
import { DataTable, Resource } from '../components/resource.js';
import { Alert, Link, Page, Status, When } from '../components/ui.js';
import { invalidate, useServerData } from '../server-state.js';
import { useAction } from '../use-action.js';

type Inbox = Schemas['Inbox'];
type Credentials = { inboxName: string; smtp: Schemas['InboxWithCredentials']['smtp'] };

function CreateInbox(props: { onCreated: (credentials: Credentials) => void }) {
  const [name, setName] = useState('');
  const { busy, error, submit } = useAction();
  const create = async () => {
    const created = await call(api.POST('/v1/inboxes', { body: { name: name.trim() } }));
    setName('');
    props.onCreated({ inboxName: created.name, smtp: created.smtp });
  };
  return (
    <section aria-labelledby="create-inbox-heading" class="card stack">
      <h2 id="create-inbox-heading">Create an inbox</h2>
      <form class="inline-form" onSubmit={submit(create)}>
        <div class="field">
          <label for="inbox-name">Name</label>
          <input id="inbox-name" required maxLength={100} value={name} onInput={(event) => setName(event.currentTarget.value)} placeholder="signup-flow" />
        </div>
        <button type="submit" disabled={busy}>Create inbox</button>
      </form>
      <Alert error={error} />
    </section>
  );
}

type Pending = { action: 'rotate' | 'clear' | 'delete'; inbox: Inbox };

const CONFIRMATIONS: Record<Pending['action'], { title: (name: string) => string; confirm: string; text: string }> = {
  rotate: { title: (name) => `New SMTP password for ${name}?`, confirm: 'Make a new password', text: 'The old password stops working at once, also for SMTP sessions that signed in with it.' },
  clear: { title: (name) => `Clear ${name}?`, confirm: 'Delete every message', text: 'Every message of the inbox is deleted; the inbox and its credentials stay.' },
  delete: { title: (name) => `Delete ${name}?`, confirm: 'Delete the inbox', text: 'The inbox, its credentials and every message in it are deleted. This cannot be undone.' },
};

function InboxActions(props: { inbox: Inbox; onAsk: (pending: Pending) => void }) {
  const { inbox } = props;
  return (
    <div class="row">
      <button type="button" class="quiet" aria-label={`New password for ${inbox.name}`} onClick={() => props.onAsk({ action: 'rotate', inbox })}>New password</button>
      <button type="button" class="quiet" aria-label={`Clear ${inbox.name}`} onClick={() => props.onAsk({ action: 'clear', inbox })}>Clear</button>
      <button type="button" class="danger" aria-label={`Delete ${inbox.name}`} onClick={() => props.onAsk({ action: 'delete', inbox })}>Delete</button>
    </div>
  );
}

export function Inboxes() {
  const inboxes = useServerData(['inboxes'], () => call(api.GET('/v1/inboxes')));
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { error, run } = useAction();

  const carryOut = ({ action, inbox }: Pending) => {
    setPending(null);
    setNotice(null);
    const path = { params: { path: { id: inbox.id } } };
    void run(async () => {
      if (action === 'rotate') {
        setCredentials({ inboxName: inbox.name, smtp: (await call(api.POST('/v1/inboxes/{id}/credentials', path))).smtp });
      } else if (action === 'clear') {
        const { deleted_messages: deleted } = await call(api.DELETE('/v1/inboxes/{id}/messages', path));
        setNotice(`Cleared ${inbox.name}: ${deleted} message(s) deleted.`);
      } else {
        await call(api.DELETE('/v1/inboxes/{id}', path));
        setNotice(`Deleted ${inbox.name}.`);
      }
      invalidate(['inboxes']);
    });
  };

  const confirmation = pending ? CONFIRMATIONS[pending.action] : null;
  return (
    <Page title="Inboxes">
      <CreateInbox onCreated={(created) => { setCredentials(created); setNotice(null); invalidate(['inboxes']); }} />
      {credentials ? <SmtpSettings inboxName={credentials.inboxName} smtp={credentials.smtp} /> : null}
      <section aria-labelledby="inbox-list-heading">
        <h2 id="inbox-list-heading">Inboxes</h2>
        {notice ? <Status>{notice}</Status> : null}
        <Alert error={error} />
        <Resource resource={inboxes} empty="No inboxes yet.">
          {(list) => (
            <DataTable caption="Inboxes of this workspace" columns={['Name', 'Messages', 'Unread', 'SMTP username', 'Created', 'Actions']}>
              {list.map((inbox) => (
                <tr key={inbox.id}>
                  <td><Link to={`/inboxes/${inbox.id}`}>{inbox.name}</Link> <ChaosChip inbox={inbox} /></td>
                  <td>{inbox.message_count.toLocaleString()}</td>
                  <td>{inbox.unread_count > 0 ? <strong>{inbox.unread_count.toLocaleString()}</strong> : 0}</td>
                  <td class="mono">{inbox.smtp_username}</td>
                  <td><When at={inbox.created_at} /></td>
                  <td><div class="row"><SettingsLink inbox={inbox} /><InboxActions inbox={inbox} onAsk={setPending} /></div></td>
                </tr>
              ))}
            </DataTable>
          )}
        </Resource>
      </section>
      {pending && confirmation ? (
        <ConfirmDialog title={confirmation.title(pending.inbox.name)} confirmLabel={confirmation.confirm} onConfirm={() => void carryOut(pending)} onCancel={() => setPending(null)}>
          <p>{confirmation.text}</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
