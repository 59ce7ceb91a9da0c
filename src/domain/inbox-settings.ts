// Per-inbox settings: one object on the inbox, kept by the stores as one JSON document per section, so a new per-inbox
// behaviour is a new section here, not a new port method, migration and two adapters.
import type { components } from '../contract/api-types.js';
import { chaosSettingsFrom, defaultChaos, type ChaosSettingsInForce } from './chaos.js';

export interface InboxSettings {
  chaos: ChaosSettingsInForce;
}

export type InboxSettingsSection = keyof InboxSettings;

export const INBOX_SETTINGS_SECTIONS: readonly InboxSettingsSection[] = ['chaos'];

export const defaultInboxSettings = (): InboxSettings => ({ chaos: defaultChaos() });

/**
 * Settings from the sections a store kept, each parsed from the JSON it wrote (an inbox created before a section
 * existed has none and gets its defaults).
 */
export function inboxSettingsFrom(stored: Partial<Record<InboxSettingsSection, unknown>>): InboxSettings {
  return { chaos: stored.chaos === undefined ? defaultChaos() : chaosSettingsFrom(stored.chaos as components['schemas']['ChaosInput']) };
}
