// The application shell: the route table, the header with the workspace switcher, the main navigation, and the
// rule that pages other than the public ones need a session (without one: the sign-in page, then back).
import type { ComponentChildren, FunctionComponent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { match, useNavigate, useRoute, type PageProps } from './router.js';
import { atLeast, useSession } from './session.js';
import { Alert, Link, Loading } from './components/ui.js';
import type { Role } from './api.js';
import { useAction } from './use-action.js';
import { SignIn } from './pages/sign-in.js';
import { SetPassword } from './pages/set-password.js';
import { AcceptInvitation } from './pages/accept-invitation.js';
import { Inboxes } from './pages/inboxes.js';
import { Inbox } from './pages/inbox.js';
import { ApiKeys } from './pages/api-keys.js';
import { Team } from './pages/team.js';
import { Usage } from './pages/usage.js';
import { AuditLog } from './pages/audit-log.js';
import { Account } from './pages/account.js';
import { NotFound } from './pages/not-found.js';
import { InboxSettings } from './pages/inbox-settings.js';
import { ShortcutsDialog } from './components/shortcuts-dialog.js';
import { landingPath } from './last-inbox.js';
import { useShortcuts } from './keyboard.js';
import { ThemeSelect } from './theme.js';

interface RouteEntry {
  pattern: string;
  page: FunctionComponent<PageProps>;
  /** Reachable without a session. */
  public?: true;
  /** Its link in the main navigation, and the role the link needs. */
  nav?: { label: string; minRole?: Role };
  /**
   * Which page instance a path is: a change of path within one instance re-renders the page instead of mounting it
   * afresh. Without it every path is a page of its own.
   */
  instance?: (params: Record<string, string>) => string;
}

/** An inbox and its open message are one page, so the message list stays as it was while messages are opened. */
const inboxInstance = (params: Record<string, string>) => `inbox ${params.inboxId}`;

const ROUTES: RouteEntry[] = [
  { pattern: '/sign-in', page: SignIn, public: true },
  { pattern: '/set-password', page: SetPassword, public: true },
  { pattern: '/accept-invitation', page: AcceptInvitation, public: true },
  { pattern: '/inboxes', page: Inboxes, nav: { label: 'Inboxes' } },
  { pattern: '/inboxes/:inboxId', page: Inbox, instance: inboxInstance },
  { pattern: '/inboxes/:inboxId/messages/:messageId', page: Inbox, instance: inboxInstance },
  { pattern: '/inboxes/:inboxId/settings', page: InboxSettings },
  { pattern: '/api-keys', page: ApiKeys, nav: { label: 'API keys' } },
  { pattern: '/team', page: Team, nav: { label: 'Team' } },
  { pattern: '/usage', page: Usage, nav: { label: 'Usage' } },
  { pattern: '/audit-log', page: AuditLog, nav: { label: 'Audit log', minRole: 'admin' } },
  { pattern: '/account', page: Account, nav: { label: 'Account' } },
];

function resolve(path: string): { entry: RouteEntry; params: Record<string, string> } | null {
  for (const entry of ROUTES) {
    const params = match(entry.pattern, path);
    if (params) return { entry, params };
  }
  return null;
}

function WorkspaceSwitcher() {
  const session = useSession();
  const { error, run } = useAction();
  const me = session.me;
  if (!me) return null;
  const change = (event: Event) => run(() => session.switchWorkspace((event.currentTarget as HTMLSelectElement).value));
  return (
    <div class="switcher">
      <label for="workspace-switcher">Workspace</label>
      <select id="workspace-switcher" value={me.workspace.id} onChange={(event) => void change(event)}>
        {me.workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>{workspace.name} ({workspace.role})</option>
        ))}
      </select>
      <Alert error={error} />
    </div>
  );
}

function Shell(props: { path: string; children: ComponentChildren }) {
  const session = useSession();
  const role = session.me?.workspace.role ?? 'member';
  // Each `?` opens a dialog of its own: a `?` pressed after an Esc closed the last one but before its close event
  // arrived opens a new one, and that late close event closes only its own.
  const [shortcutsOpening, setShortcutsOpening] = useState(0);
  const openings = useRef(0);
  useShortcuts([{ key: '?', description: 'Show the keyboard shortcuts', run: () => setShortcutsOpening(++openings.current) }]);
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  // The phone's menu closes once a page is chosen from it.
  useEffect(() => setMenuOpen(false), [props.path]);
  const signOut = async () => {
    try {
      await session.signOut();
    } finally {
      navigate('/sign-in');
    }
  };
  return (
    <>
      <a class="skip" href="#content">Skip to content</a>
      {/* One bar: on a phone all but the name folds behind Menu, so the first screen is the page's. */}
      <header class="top">
        <Link to="/inboxes" class="brand">mail-sandbox</Link>
        <button type="button" class="quiet menu-toggle" aria-expanded={menuOpen} aria-controls="top-menu" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
        <div id="top-menu" class={menuOpen ? 'top-menu open' : 'top-menu'}>
          <nav aria-label="Main" class="main-nav">
            <ul>
              {ROUTES.filter((entry) => entry.nav && atLeast(role, entry.nav.minRole ?? 'member')).map((entry) => (
                <li key={entry.pattern}>
                  <Link to={entry.pattern} current={props.path === entry.pattern || props.path.startsWith(`${entry.pattern}/`)}>{entry.nav!.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            <WorkspaceSwitcher />
            <ThemeSelect />
            {/* Relative, so outside the router's scope: the reference is the server's page, not a dashboard route. */}
            <a href="docs/api">API reference</a>
            <span class="muted">{session.me?.person.email}</span>
            <button type="button" class="quiet" onClick={() => void signOut()}>Sign out</button>
          </div>
        </div>
      </header>
      <main id="content" class="content">{props.children}</main>
      {shortcutsOpening ? (
        <ShortcutsDialog key={shortcutsOpening} onClose={() => setShortcutsOpening((current) => (current === shortcutsOpening ? 0 : current))} />
      ) : null}
    </>
  );
}

export function App() {
  const route = useRoute();
  const session = useSession();
  const navigate = useNavigate();
  const found = route.path === '/' ? null : resolve(route.path);
  const needsSession = !found?.entry.public;

  useEffect(() => {
    if (route.path === '/' && session.me) navigate(landingPath(session.me.workspace.id), { replace: true });
    else if (needsSession && session.me === null) {
      const next = route.path === '/' ? '' : `?next=${encodeURIComponent(route.path)}`;
      navigate(`/sign-in${next}`, { replace: true });
    }
  }, [route.path, session.me, needsSession]);

  if (found?.entry.public) {
    const PublicPage = found.entry.page;
    return (
      <main id="content" class="content narrow">
        <p class="brand">mail-sandbox</p>
        <PublicPage route={route} params={found.params} />
      </main>
    );
  }
  if (!session.me) return <main id="content" class="content narrow"><Loading /></main>;
  const Current = found?.entry.page ?? NotFound;
  const instance = found?.entry.instance?.(found.params) ?? route.path;
  return (
    <Shell path={route.path}>
      <Current key={`${session.me.workspace.id} ${instance}`} route={route} params={found?.params ?? {}} />
    </Shell>
  );
}
