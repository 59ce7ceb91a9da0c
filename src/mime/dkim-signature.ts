// The tags of a DKIM-Signature field (RFC 6376 §3.5) read and checked before anything is verified, so a signature that
// cannot be verified is told apart, with why, and its d= and s= become a key's name only when they are domain names.
import { domainName } from '../domain/domain-names.js';
import { parseTagList, type TagList } from '../domain/tag-list.js';

export interface DkimSignatureTags {
  domain: string | null;
  selector: string | null;
  algorithm: string | null;
  canonicalization: string | null;
  identity: string | null;
  /** h=, lower case, in order. */
  signedHeaders: string[];
  /** l=, when it is a number. */
  bodyLength: number | null;
  /** t= and x=, Unix seconds, when they are numbers. */
  signedAt: number | null;
  expiresAt: number | null;
  /** b=, white space removed. */
  signature: string | null;
  /** Where its key is published, `<s>._domainkey.<d>` as domainName writes it; null when d= or s= cannot make one. */
  keyName: string | null;
  /** Why it cannot be verified (a permanent error), in plain words; null when its tags are in order. */
  problem: string | null;
}

const ALGORITHMS = ['rsa-sha256', 'ed25519-sha256', 'rsa-sha1'];
const CANONICALIZATIONS = /^(simple|relaxed)(\/(simple|relaxed))?$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DIGITS = /^[0-9]{1,15}$/;

const numberOf = (value: string | undefined): number | null => (value !== undefined && DIGITS.test(value) ? Number(value) : null);

/** The first thing wrong with the tags, in RFC 6376 §6.1.1's order of checks, or null. */
function problemOf(tags: TagList, domain: string | null, keyName: string | null): string | null {
  const tag = (name: string) => tags.get(name);
  const missing = ['v', 'a', 'b', 'bh', 'd', 'h', 's'].find((name) => !tags.has(name) || tag(name) === '');
  if (missing) return `the required tag ${missing}= is missing or empty`;
  if (tag('v') !== '1') return `v=${tag('v')} is not version 1`;
  if (!ALGORITHMS.includes(tag('a')!.toLowerCase())) return `a=${tag('a')} is not a DKIM algorithm (${ALGORITHMS.join(', ')})`;
  for (const name of ['b', 'bh']) if (!BASE64.test(tag(name)!.replace(/\s+/g, ''))) return `${name}= is not base64`;
  if (tags.has('c') && !CANONICALIZATIONS.test(tag('c')!)) return `c=${tag('c')} is not a canonicalization (simple or relaxed, for the header and the body)`;
  if (domain === null) return `d=${tag('d')} is not a domain name`;
  if (keyName === null) return `s=${tag('s')} is not a selector (dot-separated labels)`;
  if (!tag('h')!.split(':').some((name) => name.trim().toLowerCase() === 'from')) return 'h= does not include From, which every signature must cover';
  if (tags.has('i')) {
    const at = tag('i')!.lastIndexOf('@');
    const identityDomain = at === -1 ? null : domainName(tag('i')!.slice(at + 1));
    if (identityDomain === null || (identityDomain !== domain && !identityDomain.endsWith(`.${domain}`))) return `i=${tag('i')} is not an identity in d=${domain}`;
  }
  for (const name of ['l', 't', 'x']) if (tags.has(name) && numberOf(tag(name)) === null) return `${name}=${tag(name)} is not a number`;
  const q = tag('q');
  if (q !== undefined && !q.split(':').some((method) => method.trim().toLowerCase() === 'dns/txt')) return `q=${q} names no query method but dns/txt`;
  const [signedAt, expiresAt] = [numberOf(tag('t')), numberOf(tag('x'))];
  if (signedAt !== null && expiresAt !== null && expiresAt < signedAt) return 'x= (its expiry) is before t= (when it was signed)';
  return null;
}

/** A DKIM-Signature field's value (unfolded), its tags read and checked. */
export function readDkimSignature(value: string): DkimSignatureTags {
  const parsed = parseTagList(value);
  const tags: TagList = 'tags' in parsed ? parsed.tags : new Map();
  const tag = (name: string) => tags.get(name) ?? null;
  const domain = tag('d') === null ? null : domainName(tag('d')!);
  const selector = tag('s');
  const keyName = domain !== null && selector !== null && selector !== '' ? domainName(`${selector}._domainkey.${domain}`) : null;
  return {
    domain: tag('d'),
    selector,
    algorithm: tag('a'),
    canonicalization: tag('c'),
    identity: tag('i'),
    signedHeaders: (tag('h') ?? '').split(':').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''),
    bodyLength: numberOf(tag('l') ?? undefined),
    signedAt: numberOf(tag('t') ?? undefined),
    expiresAt: numberOf(tag('x') ?? undefined),
    signature: tag('b')?.replace(/\s+/g, '') ?? null,
    keyName,
    problem: 'problem' in parsed ? `its tags cannot be read: ${parsed.problem}` : problemOf(tags, domain, keyName),
  };
}

/** The tags of an ARC-Seal or ARC-Message-Signature field (RFC 8617 §4.1) that name its instance and key. */
export interface ArcFieldTags {
  instance: number | null;
  domain: string | null;
  selector: string | null;
  /** ARC-Seal cv=. */
  chainValidation: string | null;
  keyName: string | null;
}

export function readArcField(value: string): ArcFieldTags {
  const parsed = parseTagList(value);
  const tags: TagList = 'tags' in parsed ? parsed.tags : new Map();
  const domain = tags.get('d') ?? null;
  const selector = tags.get('s') ?? null;
  const signingDomain = domain === null ? null : domainName(domain);
  return {
    instance: numberOf(tags.get('i')),
    domain,
    selector,
    chainValidation: tags.get('cv') ?? null,
    keyName: signingDomain !== null && selector !== null && selector !== '' ? domainName(`${selector}._domainkey.${signingDomain}`) : null,
  };
}

/** The instance of an ARC-Authentication-Results field (`i=1; mx.example; spf=pass ...`) and the results after it. */
export function splitArcAuthenticationResults(value: string): { instance: number | null; results: string } {
  const match = /^\s*i\s*=\s*([0-9]{1,3})\s*;(.*)$/s.exec(value);
  return match ? { instance: Number(match[1]), results: match[2]! } : { instance: null, results: value };
}
