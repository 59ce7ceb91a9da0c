// Routing relative to the base path the server's <base href> names, so the dashboard works at / and under
// SANDBOX_BASE_PATH alike. preact-iso keeps the location: it follows history (back, forward), and turns clicks on links
// below the base path into in-page navigation (its LocationProvider in main.tsx); routes here are the paths below it.
import { useLocation } from 'preact-iso';

/** The base path, ending in '/': where the dashboard is mounted. */
export function basePath(): string {
  return new URL('.', document.baseURI).pathname;
}

/** The current route: the path below the base path, starting with '/', and its query. */
export interface Route {
  path: string;
  query: URLSearchParams;
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

export function useRoute(): Route {
  const url = new URL(useLocation().url, window.location.origin);
  const base = basePath();
  const below = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname.replace(/^\//, '');
  return { path: `/${below}`.replace(/\/+$/, '') || '/', query: url.searchParams };
}

export type Navigate = (to: string, options?: { replace?: boolean }) => void;

/** Goes to a route path (starting with '/'); `replace` keeps the current entry out of the history. */
export function useNavigate(): Navigate {
  const location = useLocation();
  return (to, options = {}) => location.route(href(to), options.replace);
}

/**
 * Matches a route pattern such as '/inboxes/:id' and returns its parameters, or null. Written here rather than taken
 * from preact-iso, whose matcher (exec) its authors call internal and which its <Router> would apply to the whole
 * path, base path included.
 */
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
