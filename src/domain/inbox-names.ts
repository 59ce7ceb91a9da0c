// Inbox names are unique per workspace regardless of case; every metadata store compares them by this key.

/** Upper-casing first folds ß to ss, so "Staging" and "STAGING" and "staging" share one key. */
export const inboxNameKey = (name: string): string => name.toUpperCase().toLowerCase();
