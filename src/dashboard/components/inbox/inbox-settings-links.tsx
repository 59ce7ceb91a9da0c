// The ways to an inbox's settings (chaos, tag rules, webhooks) from where its mail is: a Settings link, and a chip
// while its chaos is armed, since an armed chaos makes the inbox's SMTP fail on purpose and a tester must see why.
import type { Schemas } from '../../api.js';
import { Link } from '../ui.js';

export const inboxSettingsPath = (inboxId: string) => `/inboxes/${encodeURIComponent(inboxId)}/settings`;

export function SettingsLink(props: { inbox: Schemas['Inbox'] }) {
  return <Link to={inboxSettingsPath(props.inbox.id)} class="settings-link" label={`Settings of ${props.inbox.name}`}>Settings</Link>;
}

/** Shown only while the inbox's chaos is on; it leads to the settings that turn it off. */
export function ChaosChip(props: { inbox: Schemas['Inbox'] }) {
  if (!props.inbox.chaos_enabled) return null;
  return (
    <Link to={inboxSettingsPath(props.inbox.id)} class="chaos-chip" label={`Chaos armed on ${props.inbox.name}: its SMTP fails on purpose. Open its settings`}>
      Chaos armed
    </Link>
  );
}
