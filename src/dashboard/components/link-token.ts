// Reads a one-time link's token from the URL fragment (`#token=...`, never sent to servers) and drops it from the
// address bar and history, so it does not linger where someone else could reuse it.
export function takeLinkToken(): string | null {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  if (token !== null) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token;
}

let taken: string | null | undefined;

/** The token of the page's link, read once per page load (re-renders and strict remounts see the same one). */
export function linkToken(): string | null {
  const fresh = takeLinkToken();
  if (fresh !== null || taken === undefined) taken = fresh;
  return taken;
}
