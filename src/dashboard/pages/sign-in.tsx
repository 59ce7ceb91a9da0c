// Sign in with email and password; the server's message is shown as is (wrong password, too many attempts).
import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { Alert, Page } from '../components/ui.js';
import { useNavigate, type PageProps } from '../router.js';
import { useSession } from '../session.js';
import { useAction } from '../use-action.js';
import { landingPath } from '../last-inbox.js';

/**
 * Only paths inside the dashboard: `next` comes from the URL, so it must never lead elsewhere. Without one, the
 * workspace's last open inbox (last-inbox.ts).
 */
function safeNext(next: string | null, workspaceId: string): string {
  return next !== null && /^\/[^/\\]/.test(next) && !next.startsWith('/sign-in') ? next : landingPath(workspaceId);
}

export function SignIn({ route }: PageProps) {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState(route.query.get('email') ?? '');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAction();

  const signIn = submit(async () => {
    const me = await session.signIn(email.trim(), password);
    navigate(safeNext(route.query.get('next'), me.workspace.id), { replace: true });
  });
  const retry = error instanceof ApiError && error.code === 'rate_limited' && error.retryAfterSeconds !== null
    ? ` Try again in ${Math.ceil(error.retryAfterSeconds / 60)} minute(s).`
    : '';

  return (
    <Page title="Sign in">
      <form class="card stack" onSubmit={signIn} noValidate>
        <div class="field">
          <label for="sign-in-email">Email</label>
          <input id="sign-in-email" type="email" autoComplete="username" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="sign-in-password">Password</label>
          <input id="sign-in-password" type="password" autoComplete="current-password" required value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
        </div>
        {error ? <p role="alert" class="alert">{error instanceof Error ? error.message : 'Sign-in failed.'}{retry}</p> : <Alert error={null} />}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p class="hint">No account yet? Ask an admin of your workspace for an invitation; operators print a set-password link with <code>npm run --silent admin -- member password --email you@example.com</code>.</p>
    </Page>
  );
}
