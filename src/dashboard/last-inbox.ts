// The inbox a person last had open, per workspace, so signing in (or opening the dashboard's root) lands there rather
// than on the list of inboxes. Kept in localStorage like the other remembered choices; an inbox found gone is forgotten.
import { rememberChoice } from './remembered-choice.js';

const KEY = 'mail-sandbox.last-inbox';

function stored(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return value !== null && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function rememberLastInbox(workspaceId: string, inboxId: string): void {
  rememberChoice(KEY, JSON.stringify({ ...stored(), [workspaceId]: inboxId }));
}

export function forgetLastInbox(workspaceId: string, inboxId: string): void {
  const { [workspaceId]: last, ...rest } = stored();
  if (last === inboxId) rememberChoice(KEY, JSON.stringify(rest));
}

/** Where a person lands in the workspace: its last open inbox, else the list of inboxes. */
export function landingPath(workspaceId: string): string {
  const inboxId = stored()[workspaceId];
  return typeof inboxId === 'string' && /^[\w-]{1,100}$/.test(inboxId) ? `/inboxes/${encodeURIComponent(inboxId)}` : '/inboxes';
}
