// The person's account: change password (which ends their other sessions) and the sessions list, to end one.
import { useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { DataTable, Resource } from '../components/resource.js';
import { Alert, Page, Status, When } from '../components/ui.js';
import { invalidate, useServerData } from '../server-state.js';
import { useSession } from '../session.js';
import { useAction } from '../use-action.js';

function ChangePassword() {
  const email = useSession().me?.person.email ?? '';
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, submit } = useAction();
  const change = submit(async () => {
    setNotice(null);
    const { ended_sessions: ended } = await call(api.PUT('/v1/me/password', { body: { current_password: current, new_password: next } }));
    setCurrent('');
    setNext('');
    setNotice(`Password changed. ${ended} other session(s) ended.`);
    // The other sessions ended.
    invalidate(['sessions']);
  });
  return (
    <section aria-labelledby="password-heading" class="card stack">
      <h2 id="password-heading">Change password</h2>
      <form class="stack" onSubmit={change}>
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <div class="field">
          <label for="current-password">Current password</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={current} onInput={(event) => setCurrent(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="account-new-password">New password</label>
          <input id="account-new-password" type="password" autoComplete="new-password" minLength={10} required aria-describedby="account-new-password-hint" value={next} onInput={(event) => setNext(event.currentTarget.value)} />
          <p class="hint" id="account-new-password-hint">At least 10 characters, not your email. Your other sessions end.</p>
        </div>
        <Alert error={error} />
        {notice ? <Status>{notice}</Status> : null}
        <button type="submit" disabled={busy}>Change password</button>
      </form>
    </section>
  );
}

function Sessions() {
  const sessions = useServerData(['sessions'], () => call(api.GET('/v1/me/sessions')));
  const { error, run } = useAction();
  const end = (id: string) => run(async () => {
    await call(api.DELETE('/v1/me/sessions/{id}', { params: { path: { id } } }));
    invalidate(['sessions']);
  });
  return (
    <section aria-labelledby="sessions-heading" class="stack">
      <h2 id="sessions-heading">Sessions</h2>
      <Alert error={error} />
      <Resource resource={sessions}>
        {(list) => (
          <DataTable caption="Your sessions" columns={['Browser', 'Address', 'Signed in', 'Last seen', 'Expires', 'Actions']}>
            {list.map((session, index) => (
              <tr key={session.id}>
                <td class="clip" title={session.user_agent ?? ''}>{session.user_agent ?? 'unknown'}</td>
                <td class="mono">{session.ip ?? 'unknown'}</td>
                <td><When at={session.created_at} /></td>
                <td><When at={session.last_seen_at} /></td>
                <td><When at={session.expires_at} /></td>
                <td>
                  {session.current ? <span class="muted">This session</span> : (
                    <button type="button" class="danger" aria-label={`End session ${index + 1}`} onClick={() => void end(session.id)}>End session</button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Resource>
    </section>
  );
}

export function Account() {
  const me = useSession().me!;
  return (
    <Page title="Account">
      <p>Signed in as <strong>{me.person.email}</strong>.</p>
      <ChangePassword />
      <Sessions />
    </Page>
  );
}
