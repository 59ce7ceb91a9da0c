// API keys: the list (prefix, access, created, last used), creating one (the key shown once) and revoking, with a
// confirmation. Admins and owners only: for members the API answers 403 role_required and this page says so.
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { DataTable, Resource } from '../components/resource.js';
import { RoleRequired, isRoleRequired } from '../components/role-required.js';
import { OneTimeSecret } from '../components/copy.js';
import { Alert, Page, Status, When } from '../components/ui.js';
import { invalidate, useServerData } from '../server-state.js';
import { useAction } from '../use-action.js';

type Access = Schemas['ApiKey']['access'];

function CreateKey() {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>('read_write');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, submit } = useAction();
  const create = submit(async () => {
    const body = name.trim() === '' ? { access } : { access, name: name.trim() };
    setCreated((await call(api.POST('/v1/api-keys', { body }))).key);
    setName('');
    invalidate(['api-keys']);
  });
  return (
    <section aria-labelledby="create-key-heading" class="card stack">
      <h2 id="create-key-heading">Create a key</h2>
      <form class="inline-form" onSubmit={create}>
        <div class="field">
          <label for="key-name">Name</label>
          <input id="key-name" maxLength={100} value={name} onInput={(event) => setName(event.currentTarget.value)} placeholder="CI pipeline" />
        </div>
        <div class="field">
          <label for="key-access">Access</label>
          <select id="key-access" value={access} onChange={(event) => setAccess(event.currentTarget.value as Access)}>
            <option value="read_write">read and write</option>
            <option value="read">read only</option>
          </select>
        </div>
        <button type="submit" disabled={busy}>Create key</button>
      </form>
      <Alert error={error} />
      {created ? (
        <OneTimeSecret label="New API key" value={created} note="Copy it now: it is shown only once. Send it as Authorization: Bearer <key>." />
      ) : null}
    </section>
  );
}

function KeyRow(props: { apiKey: Schemas['ApiKey']; onRevoked: (name: string) => void }) {
  const { apiKey } = props;
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useAction();
  const label = apiKey.name ?? apiKey.prefix;
  const revoke = () => run(async () => {
    setConfirming(false);
    await call(api.DELETE('/v1/api-keys/{id}', { params: { path: { id: apiKey.id } } }));
    props.onRevoked(label);
    invalidate(['api-keys']);
  });
  return (
    <tr>
      <td>{apiKey.name ?? <span class="muted">unnamed</span>}</td>
      <td class="mono">{apiKey.prefix}…</td>
      <td>{apiKey.access === 'read' ? 'read only' : 'read and write'}</td>
      <td><When at={apiKey.created_at} /></td>
      <td><When at={apiKey.last_used_at} /></td>
      <td>
        <button type="button" class="danger" aria-label={`Revoke ${label}`} onClick={() => setConfirming(true)}>Revoke</button>
        <Alert error={error} />
        {confirming ? (
          <ConfirmDialog title={`Revoke ${label}?`} confirmLabel={`Yes, revoke ${label}`} onConfirm={() => void revoke()} onCancel={() => setConfirming(false)}>
            <p>Requests with it will fail.</p>
          </ConfirmDialog>
        ) : null}
      </td>
    </tr>
  );
}

export function ApiKeys() {
  const keys = useServerData(['api-keys'], () => call(api.GET('/v1/api-keys')));
  const [notice, setNotice] = useState<string | null>(null);
  if (isRoleRequired(keys.error)) {
    return (
      <Page title="API keys">
        <RoleRequired what="manage API keys" error={keys.error} />
      </Page>
    );
  }
  return (
    <Page title="API keys">
      <p class="muted">Keys reach the <code>/v1</code> API of this workspace. A key's secret is shown once, when it is made.</p>
      <CreateKey />
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {notice ? <Status>{notice}</Status> : null}
        <Resource resource={keys} empty="No keys.">
          {(list) => (
            <DataTable caption="API keys" columns={['Name', 'Prefix', 'Access', 'Created', 'Last used', 'Actions']}>
              {list.map((apiKey) => <KeyRow key={apiKey.id} apiKey={apiKey} onRevoked={(label) => setNotice(`Revoked ${label}.`)} />)}
            </DataTable>
          )}
        </Resource>
      </section>
    </Page>
  );
}
