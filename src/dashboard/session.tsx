// The signed-in person (GET /v1/me) shared with every page, and the actions that change it: sign in, switch
// workspace, sign out. The CSRF token the API client sends comes from here.
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { roleAtLeast } from '../domain/roles.js';
import { api, call, setCsrfToken, whenSessionLost, type Me, type Role } from './api.js';
import { queryClient } from './server-state.js';

interface SessionState {
  /** undefined while loading; null when nobody is signed in. */
  me: Me | null | undefined;
  refresh(): Promise<Me | null>;
  signIn(email: string, password: string, workspaceId?: string): Promise<Me>;
  switchWorkspace(workspaceId: string): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (state === null) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The role of the signed-in person in the session's workspace. */
export function useRole(): Role {
  return useSession().me?.workspace.role ?? 'member';
}

/** The server's role order, so a page shows what the API would allow. */
export const atLeast = roleAtLeast;

export function SessionProvider(props: { children: ComponentChildren }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const adopted = useRef<Me | null | undefined>(undefined);
  const adopt = (next: Me | null) => {
    // Another person or workspace: nothing read for the one before may show.
    if (next?.person.email !== adopted.current?.person.email || next?.workspace.id !== adopted.current?.workspace.id) queryClient.clear();
    adopted.current = next;
    setCsrfToken(next?.csrf_token ?? null);
    setMe(next);
    return next;
  };
  const state: SessionState = {
    me,
    async refresh() {
      const { data, response } = await api.GET('/v1/me');
      if (response.status === 401) return adopt(null);
      if (!data) throw new Error(`GET /v1/me answered ${response.status}`);
      return adopt(data.data);
    },
    async signIn(email, password, workspaceId) {
      const body = workspaceId ? { email, password, workspace_id: workspaceId } : { email, password };
      return adopt(await call(api.POST('/v1/session', { body })))!;
    },
    async switchWorkspace(workspaceId) {
      adopt(await call(api.PUT('/v1/me/workspace', { body: { workspace_id: workspaceId } })));
    },
    async signOut() {
      await call(api.DELETE('/v1/session'));
      adopt(null);
    },
  };
  useEffect(() => {
    // A 401 anywhere means the session ended (signed out elsewhere, expired, removed): the app then shows sign-in.
    whenSessionLost(() => adopt(null));
    state.refresh().catch(() => adopt(null));
  }, []);
  return <SessionContext.Provider value={state}>{props.children}</SessionContext.Provider>;
}
