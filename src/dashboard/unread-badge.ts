// The document's title and its tab icon: the page's title, and while an inbox is open its unread count in both, so a
// tab in the background tells that mail came in ("(3) signup-flow · mail-sandbox" and a badge on the envelope).
const MOST_SHOWN = 99;

let pageTitle = '';
let unread = 0;

/** An envelope, and over its corner a badge with the count when there is one. */
function iconUrl(count: number): string {
  const shown = count > MOST_SHOWN ? `${MOST_SHOWN}+` : String(count);
  const badge = count > 0
    ? `<circle cx="46" cy="18" r="18" fill="#d93025"/><text x="46" y="25" font-family="sans-serif" font-size="${shown.length > 2 ? 15 : 20}" font-weight="bold" fill="#fff" text-anchor="middle">${shown}</text>`
    : '';
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    + '<rect x="4" y="14" width="52" height="38" rx="5" fill="#0a58ca"/><path d="M6 18l24 19 24-19" fill="none" stroke="#fff" stroke-width="4"/>'
    + `${badge}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function show(): void {
  const prefix = unread > 0 ? `(${unread > MOST_SHOWN ? `${MOST_SHOWN}+` : unread}) ` : '';
  document.title = `${prefix}${pageTitle ? `${pageTitle} · ` : ''}mail-sandbox`;
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    document.head.append(icon);
  }
  icon.href = iconUrl(unread);
}

export function setPageTitle(title: string): void {
  pageTitle = title;
  show();
}

/** The open inbox's unread count; 0 when no inbox is open. */
export function setUnreadCount(count: number): void {
  unread = count;
  show();
}
