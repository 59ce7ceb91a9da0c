// Domain names as DNS looks them up: a name written in a message (a DKIM d=, a From address's domain) in the form it
// is compared and queried in, or null when it is not a domain name at all, so that no stranger's text becomes a query.
import { domainToASCII } from 'node:url';

/** A label of letters, digits, hyphens and underscores (`_domainkey`, `_dmarc`), not starting or ending with a hyphen. */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const MAX_NAME_LENGTH = 253;

/**
 * The name in lower-case ASCII (IDNA A-labels, no trailing dot); null when it is not a domain name: empty, too long,
 * a label malformed, or an IP address (whose last label is all digits, as no top-level domain's is).
 */
export function domainName(written: string): string | null {
  const trimmed = written.trim().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH * 4) return null;
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > MAX_NAME_LENGTH) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label)) || /^[0-9]+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/** The domain of an address (after its last `@`), as domainName reads it. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  return at === -1 ? null : domainName(address.slice(at + 1));
}
