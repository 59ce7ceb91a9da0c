// The tag=value lists DKIM signatures, DKIM key records and DMARC records are written in (RFC 6376 §3.2,
// RFC 7489 §6.4): `v=1; a=rsa-sha256; d=example.com`.

/** The tags by name (names are case-sensitive), values trimmed with their inner white space kept as one space. */
export type TagList = ReadonlyMap<string, string>;

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The list, or why it cannot be read (a part without `=`, a malformed or repeated tag name). */
export function parseTagList(text: string): { tags: TagList } | { problem: string } {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    if (equals === -1) return { problem: `"${clip(part.trim())}" is not a tag=value pair` };
    const name = part.slice(0, equals).trim();
    if (!TAG_NAME.test(name)) return { problem: `"${clip(name)}" is not a tag name` };
    if (tags.has(name)) return { problem: `the tag ${name}= appears twice` };
    tags.set(name, part.slice(equals + 1).replace(/\s+/g, ' ').trim());
  }
  return { tags };
}

/** Quoted text of a stranger's, cut short enough for a sentence. */
const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
