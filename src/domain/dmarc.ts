// DMARC's rules on DKIM (RFC 7489): which published record applies, what it asks, and whether a signing domain aligns
// with the From domain, relaxed (one organizational domain) or strict (the same domain).
import { parseTagList } from './tag-list.js';

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface DmarcRecord {
  text: string;
  /** p=: for mail from the domain the record is published at. */
  policy: DmarcPolicy;
  /** sp=: for its subdomains (p= when absent). */
  subdomainPolicy: DmarcPolicy;
  /** adkim=. */
  dkimAlignment: 'relaxed' | 'strict';
  /** pct=, 100 when absent. */
  percent: number;
}

export interface Alignment {
  relaxed: boolean;
  strict: boolean;
}

const POLICIES = new Set<string>(['none', 'quarantine', 'reject']);
const isPolicy = (value: string | undefined): value is DmarcPolicy => value !== undefined && POLICIES.has(value.toLowerCase());

/** The one TXT record that starts `v=DMARC1`, its character strings joined; null when there is none or more than one (RFC 7489 §6.6.3). */
export function dmarcRecordText(records: readonly (readonly string[])[]): string | null {
  const candidates = records.map((strings) => strings.join('').trim()).filter((text) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(text));
  return candidates.length === 1 ? candidates[0]! : null;
}

/**
 * What a DMARC record asks; null when it is not one a receiver applies (v=DMARC1 not first, or neither a valid p= nor
 * a rua= that makes it p=none, RFC 7489 §6.6.3).
 */
export function dmarcRecordOf(text: string): DmarcRecord | null {
  const parsed = parseTagList(text);
  if (!('tags' in parsed)) return null;
  const { tags } = parsed;
  if ([...tags.keys()][0] !== 'v' || tags.get('v')?.toUpperCase() !== 'DMARC1') return null;
  const p = tags.get('p');
  const policy = isPolicy(p) ? p.toLowerCase() as DmarcPolicy : tags.has('rua') ? 'none' : null;
  if (policy === null) return null;
  const sp = tags.get('sp');
  const pct = Number(tags.get('pct') ?? '100');
  return {
    text,
    policy,
    subdomainPolicy: isPolicy(sp) ? sp.toLowerCase() as DmarcPolicy : policy,
    dkimAlignment: tags.get('adkim')?.toLowerCase() === 's' ? 'strict' : 'relaxed',
    percent: Number.isInteger(pct) && pct >= 0 && pct <= 100 ? pct : 100,
  };
}

/**
 * Whether `signingDomain` aligns with `fromDomain`, both as domainName writes them, `organizationalDomain` being the
 * From domain's registrable domain: strict when they are equal, relaxed when the signing domain is that organizational
 * domain or a name under it (then both have the same organizational domain).
 */
export function alignmentOf(signingDomain: string | null, fromDomain: string, organizationalDomain: string): Alignment {
  if (signingDomain === null) return { relaxed: false, strict: false };
  return {
    strict: signingDomain === fromDomain,
    relaxed: signingDomain === organizationalDomain || signingDomain.endsWith(`.${organizationalDomain}`),
  };
}
