// Set password from a one-time link (`/set-password#token=...`): look the link up, set the password, then sign in.
import { useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { Resource } from '../components/resource.js';
import { Alert, Page, When } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { useNavigate } from '../router.js';
import { useAction } from '../use-action.js';
import { linkToken } from '../components/link-token.js';

export function SetPassword() {
  const navigate = useNavigate();
  const [token] = useState(linkToken);
  const link = useServerData(['password-link', token], async () => {
    if (token === null) throw new Error('this page needs the link you were given (it ends in #token=...)');
    return call(api.POST('/v1/password-links/lookup', { body: { token } }));
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, submit, fail } = useAction();

  const save = submit(async () => {
    const { email } = await call(api.POST('/v1/password-links/accept', { body: { token: token!, password } }));
    navigate(`/sign-in?email=${encodeURIComponent(email)}`, { replace: true });
  });
  const check = (event: Event) => {
    if (password === confirm) return save(event);
    event.preventDefault();
    fail(new Error('the two passwords differ'));
  };

  return (
    <Page title="Set your password">
      <Resource resource={link}>
        {(found) => (
          <form class="card stack" onSubmit={check}>
            <p>For <strong>{found.email}</strong>. This link works once, until <When at={found.expires_at} />.</p>
            <input type="email" autoComplete="username" value={found.email} readOnly hidden />
            <div class="field">
              <label for="new-password">New password</label>
              <input id="new-password" type="password" autoComplete="new-password" minLength={10} required aria-describedby="new-password-hint" value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
              <p class="hint" id="new-password-hint">At least 10 characters, not your email.</p>
            </div>
            <div class="field">
              <label for="confirm-password">Repeat the password</label>
              <input id="confirm-password" type="password" autoComplete="new-password" required value={confirm} onInput={(event) => setConfirm(event.currentTarget.value)} />
            </div>
            <Alert error={error} />
            <button type="submit" disabled={busy}>Set password</button>
          </form>
        )}
      </Resource>
    </Page>
  );
}
