// Accept an invitation (`/accept-invitation#token=...`): shows the workspace and role; a new person chooses a
// password, someone with an account gives theirs (the page is not told which: that is not the inviter's to learn).
// Then signs in to the workspace joined.
import { useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { Resource } from '../components/resource.js';
import { Alert, Page, When } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { useNavigate } from '../router.js';
import { useSession } from '../session.js';
import { useAction } from '../use-action.js';
import { linkToken } from '../components/link-token.js';

export function AcceptInvitation() {
  const session = useSession();
  const navigate = useNavigate();
  const [token] = useState(linkToken);
  const invitation = useServerData(['invitation-link', token], async () => {
    if (token === null) throw new Error('this page needs the invitation link you were given (it ends in #token=...)');
    return call(api.POST('/v1/invitations/lookup', { body: { token } }));
  });
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAction();

  const accept = submit(async () => {
    const accepted = await call(api.POST('/v1/invitations/accept', { body: { token: token!, password } }));
    try {
      await session.signIn(accepted.email, password, accepted.workspace.id);
      navigate('/inboxes', { replace: true });
    } catch {
      navigate(`/sign-in?email=${encodeURIComponent(accepted.email)}`, { replace: true });
    }
  });

  return (
    <Page title="Accept invitation">
      <Resource resource={invitation}>
        {(preview) => (
          <form class="card stack" onSubmit={accept}>
            <p>
              <strong>{preview.email}</strong> is invited to the workspace <strong>{preview.workspace_name}</strong> as{' '}
              <strong>{preview.role}</strong>. The invitation expires <When at={preview.expires_at} />.
            </p>
            <input type="email" autoComplete="username" value={preview.email} readOnly hidden />
            <div class="field">
              <label for="invitation-password">Password</label>
              <input id="invitation-password" type="password" autoComplete="current-password" required aria-describedby="invitation-password-hint" value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
              <p class="hint" id="invitation-password-hint">
                If you have an account here, enter its password to join. If not, choose one for your new account: at least
                10 characters, not your email.
              </p>
            </div>
            <Alert error={error} />
            <button type="submit" disabled={busy}>Accept invitation</button>
          </form>
        )}
      </Resource>
    </Page>
  );
}
