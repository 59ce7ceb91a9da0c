// What a list row shows as the sender: the From header's display name ("Acme Shop" from `"Acme Shop" <orders@acme.example>`),
// or its address when it has no name; and as the recipient, the first address (a test tells its recipients apart by
// address). The full headers stay on hover; the row has room for a name, not a header.

/** The first mailbox's display name in a decoded From header, else its address, else the header as it is. */
export function senderName(from: string): string {
  const quoted = /^\s*"((?:[^"\\]|\\.)*)"\s*</.exec(from);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1').trim() || addressOf(from);
  const named = /^\s*([^<,"]+?)\s*</.exec(from);
  if (named) return named[1]!;
  return addressOf(from);
}

function addressOf(from: string): string {
  return /<([^>]*)>/.exec(from)?.[1]?.trim() || from.trim();
}

/** The first recipient's address: of the To header's first mailbox, else the envelope's first recipient. */
export function firstRecipient(to: string, recipients: readonly string[]): string {
  const bracketed = /<([^>]*)>/.exec(to)?.[1]?.trim();
  const bare = /[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/.exec(to)?.[0];
  return bracketed || bare || recipients[0] || '';
}
