// What pages read from the API, kept by @tanstack/query-core under a key and fetched again when a change invalidates
// that key, bound to Preact hooks here as its React adapter binds it to React. A page says what it reads and, after a
// change, which keys the change made stale; every view of those keys then shows the server's new answer.
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/query-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A failure shows at once rather than after retries, and nothing is fetched again behind the person's back.
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      // A page shows what the server says when it opens: an answer is dropped once no page reads it.
      gcTime: 0,
    },
  },
});

/** An API read as a page sees it: the data once loaded (null before), and what the last fetch threw (null if none). */
export interface ServerData<T> {
  data: T | null;
  error: unknown;
  /**
   * When the data was last fetched (0 before). A read again that answers the same keeps the same `data` object
   * (structural sharing), so this, not the object, tells that the server was asked again.
   */
  updatedAt: number;
}

/**
 * Reads `read()` under `queryKey` while the component is mounted; a new key reads again. `refreshMs`: for what changes
 * on the server's schedule rather than through the dashboard, read again this often. `freshMs`: an answer at most this
 * old (one a read begun ahead of the page left behind) is shown as it is, not read again.
 */
export function useServerData<T>(queryKey: QueryKey, read: () => Promise<T>, timing: { refreshMs?: number; freshMs?: number } = {}): ServerData<T> {
  const [, rerender] = useReducer((round: number) => round + 1, 0);
  const options = queryClient.defaultQueryOptions<T, Error, T, T, QueryKey>({
    queryKey,
    queryFn: read,
    refetchInterval: timing.refreshMs ?? false,
    staleTime: timing.freshMs ?? 0,
  });
  const [observer] = useState(() => new QueryObserver<T, Error, T, T, QueryKey>(queryClient, options));
  const result = observer.getOptimisticResult(options);
  // Layout effects: subscribing starts the read, which should not wait for the paint of the render that asked for it
  // (a passive effect runs only after that paint: a frame later, or more on a busy machine).
  useLayoutEffect(() => observer.subscribe(() => rerender(undefined)), [observer]);
  useLayoutEffect(() => observer.setOptions(options));
  return { data: result.error ? null : (result.data ?? null), error: result.error ?? null, updatedAt: result.dataUpdatedAt };
}

/** After a change on the server: every read whose key starts with `queryKey` is fetched again. */
export function invalidate(queryKey: QueryKey): void {
  void queryClient.invalidateQueries({ queryKey });
}
