// Client-side routing over the history API, relative to the base path the server's <base href> names, so the
// dashboard works at / and under SANDBOX_BASE_PATH alike.
import { useEffect, useState } from 'preact/hooks';

/** The base path, ending in '/': where the dashboard is mounted. */
export function basePath(): string {
  return new URL('.', document.baseURI).pathname;
}

/** The current route: the path below the base path, starting with '/', and its query. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const base = basePath();
  const { pathname, search } = window.location;
  const below = pathname.startsWith(base) ? pathname.slice(base.length) : pathname.replace(/^\//, '');
  return { path: `/${below}`.replace(/\/+$/, '') || '/', query: new URLSearchParams(search) };
}

/** What every page is given: the route and the parameters its pattern matched. */
export interface PageProps {
  route: Route;
  params: Record<string, string>;
}

/** The URL of a route path (starting with '/'), for href attributes. */
export function href(to: string): string {
  return basePath() + to.replace(/^\//, '');
}

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', href(to));
  else window.history.pushState(null, '', href(to));
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return route;
}

/** Matches a route pattern such as '/inboxes/:id' and returns its parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_all, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}$`).exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]));
}
