// The authentication check's step on a content worker: the message's DKIM signatures, ARC chain and DMARC alignment
// verified by mailauth on the bytes exactly as stored. mailauth asks its DNS questions of a resolver given here, which
// answers only from the lookups the service has made (in the workspace's turn, on the event loop's side): a question
// not answered yet is noted, and the step asks for those names to be looked up and is run again with their answers.
import crypto from 'node:crypto';
import { arc, dkimVerify, dmarc, type ARCData, type DKIMResult, type DMARCResult } from 'mailauth';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import {
  clipText, LISTED_AT_MOST, NOT_LOOKED_UP, temporaryFailure,
  type AuthCheckFindings, type AuthCheckOutcome, type AuthCheckSignatureJson, type TxtAnswer, type TxtAnswers,
} from '../domain/auth-check.js';
import { alignmentOf, dmarcRecordOf, dmarcRecordText, type DmarcRecord } from '../domain/dmarc.js';
import { domainName, domainOfAddress } from '../domain/domain-names.js';
import { parseTagList } from '../domain/tag-list.js';
import { parseAuthenticationResults } from './authentication-results.js';
import { readArcField, readDkimSignature, splitArcAuthenticationResults, type ArcFieldTags, type DkimSignatureTags } from './dkim-signature.js';
import { HEADER_SCAN_BYTES, headerSection, type HeaderFieldSpan } from './header-fields.js';

/** Signatures verified per message, top first; the others are counted and left out of the copy that is verified. */
export const SIGNATURES_VERIFIED = 10;
/** RSA keys shorter than this are refused (`policy`), as receivers refuse them (RFC 8301 §3.2). */
const MIN_RSA_BITS = 1024;
const AUTHENTICATION_RESULTS_LISTED = 20;
/** RFC 8617 §4.2.1: a chain has at most 50 sets. */
const ARC_SETS_LISTED = 50;
/** RFC 6376 §5.4.1: the fields a signature should cover whenever the message has them. */
const SHOULD_BE_SIGNED = [
  'from', 'reply-to', 'subject', 'date', 'to', 'cc', 'resent-date', 'resent-from', 'resent-sender', 'resent-to', 'resent-cc',
  'in-reply-to', 'references', 'list-id', 'list-help', 'list-unsubscribe', 'list-subscribe', 'list-post', 'list-owner', 'list-archive',
];

/** What mailauth reports of a signature beyond its declared type (lib/dkim/dkim-verifier.js). */
interface VerifiedSignature extends DKIMResult {
  signature?: string;
  bodyHash?: string;
  bodyHashExpecting?: string;
  /** Bytes of the canonicalized body that were hashed. */
  canonBodyLength?: number;
}

type Findings = AuthCheckFindings;
type SignatureResult = AuthCheckSignatureJson['Result'];

interface FromDomain {
  domain: string;
  organizational: string;
}

/** One ARC set's fields, by instance. */
interface ArcSet {
  instance: number;
  seal: ArcFieldTags | null;
  signature: ArcFieldTags | null;
  results: string | null;
}

/**
 * Without `answers`: the names to look up first (the verified signatures' keys, the From domain's DMARC record, the
 * ARC chain's keys), read from the header alone. With them: the findings, unless mailauth asked for a name that has no
 * answer yet; then those names, except on the `lastRound`, where such names count as not looked up.
 */
export async function verifySenderAuthentication(raw: Buffer, answers: TxtAnswers | null, lastRound: boolean): Promise<AuthCheckOutcome> {
  const section = headerSection(raw);
  if (section.bodyStart === null) return { kind: 'header-too-large', limitBytes: HEADER_SCAN_BYTES };
  const signatureFields = section.fields.filter((field) => field.name === 'dkim-signature');
  const signatures = signatureFields.slice(0, SIGNATURES_VERIFIED).map((field) => readDkimSignature(field.value));
  const arcSets = arcSetsOf(section.fields);
  const fromAddresses = section.fields.filter((field) => field.name === 'from')
    .flatMap((field) => addressparser(field.value, { flatten: true }).map((entry) => entry.address.trim()).filter((address) => address !== ''));
  const fromDomain = fromAddresses.length === 1 ? domainOfAddress(fromAddresses[0]!) : null;

  if (answers === null) {
    const names = [
      ...signatures.filter((tags) => tags.problem === null).map((tags) => tags.keyName),
      fromDomain === null ? null : `_dmarc.${fromDomain}`,
      ...arcSets.flatMap((set) => [set.seal?.keyName ?? null, set.signature?.keyName ?? null]),
    ].filter((name): name is string => name !== null);
    return { kind: 'lookups-needed', names: [...new Set(names)] };
  }

  const missing = new Set<string>();
  const resolver = async (name: string, type: string): Promise<string[][]> => {
    const known = domainName(name);
    if (type !== 'TXT' || known === null) throw lookupError({ code: 'EBADNAME', reason: `${clipText(name)} is not a name this check looks up` });
    const answer = answers.get(known);
    if (answer === undefined) {
      missing.add(known);
      throw lookupError({ code: NOT_LOOKED_UP, reason: `the name ${known} was not looked up` });
    }
    if ('code' in answer) throw lookupError(answer);
    return answer.records;
  };

  const verified = signatureFields.length > SIGNATURES_VERIFIED ? withoutFields(raw, signatureFields.slice(SIGNATURES_VERIFIED)) : raw;
  const dkim = await withoutConsoleLog(() => dkimVerify(verified, { resolver, minBitLength: MIN_RSA_BITS }));
  // The chain mailauth read is a property it does not declare on the result's type (it is not enumerable either).
  const arcChain = (dkim as unknown as { arc: ARCData }).arc;
  const arcResult = await arc(arcChain, { resolver, minBitLength: MIN_RSA_BITS });
  // Called for the record and the organizational domain (mailauth's public suffix list); its verdict is made below.
  const dmarcResult = fromDomain === null ? false : await dmarc({ headerFrom: fromAddresses, spfDomains: [], dkimDomains: [], resolver });
  if (missing.size > 0 && !lastRound) return { kind: 'lookups-needed', names: [...missing] };

  const from: FromDomain | null = fromDomain === null ? null : { domain: fromDomain, organizational: (dmarcResult && domainName(dmarcResult.domain)) || fromDomain };
  const present = new Set(section.fields.map((field) => field.name));
  const results = matchResults(signatures, dkim.results as VerifiedSignature[]);
  const signatureJson = signatures.map((tags, index) => describeSignature(index + 1, tags, results[index], answers, from, present));
  const dmarcJson = describeDmarc(fromAddresses, fromDomain, from, dmarcResult, answers, signatureJson);
  const authenticationResults = section.fields.filter((field) => field.name === 'authentication-results');
  const findings: AuthCheckFindings = {
    Verdict: verdictOf(signatureJson, signatureFields.length, dmarcJson),
    Dkim: {
      Result: signatureJson.length === 0 ? 'none' : signatureJson.some((signature) => signature.Result === 'pass') ? 'pass' : signatureJson[0]!.Result,
      Found: signatureFields.length,
      Capped: signatureFields.length > SIGNATURES_VERIFIED,
      Signatures: signatureJson,
    },
    Dmarc: dmarcJson,
    Arc: describeArc(arcSets, arcResult.status, answers),
    AuthenticationResults: {
      Found: authenticationResults.length,
      Fields: authenticationResults.slice(0, AUTHENTICATION_RESULTS_LISTED).map((field) => parseAuthenticationResults(field.value)),
    },
  };
  return { kind: 'verified', findings };
}

const lookupError = (answer: { code: string; reason: string }): Error => Object.assign(new Error(answer.reason), { code: answer.code });

/**
 * mailauth 4.13 prints a line to stdout when a signature's l= is not the length it hashed (lib/dkim/dkim-verifier.js),
 * and a worker's stdout is the server's JSON log. A worker runs one task at a time, so nothing else prints meanwhile.
 */
async function withoutConsoleLog<T>(work: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await work();
  } finally {
    console.log = log;
  }
}

/** The message without the given fields of its header section, every other byte as it was. */
function withoutFields(raw: Buffer, left: readonly HeaderFieldSpan[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const field of left) {
    parts.push(raw.subarray(at, field.start));
    at = field.end;
  }
  parts.push(raw.subarray(at));
  return Buffer.concat(parts);
}

/**
 * mailauth's result of each signature: it reports them in order but leaves out those it cannot read, so each is
 * matched by its d=, s= and b= (read alike by both); a signature with no match has none.
 */
function matchResults(signatures: readonly DkimSignatureTags[], results: readonly VerifiedSignature[]): (VerifiedSignature | undefined)[] {
  const key = (domain: string | null | undefined, selector: string | null | undefined, signature: string | null | undefined) => JSON.stringify([domain, selector, signature]);
  const queues = new Map<string, VerifiedSignature[]>();
  for (const result of results) {
    if (result.signature === undefined) continue;
    const queue = queues.get(key(result.signingDomain, result.selector, result.signature)) ?? [];
    queue.push(result);
    queues.set(key(result.signingDomain, result.selector, result.signature), queue);
  }
  return signatures.map((tags) => (tags.problem === null ? queues.get(key(tags.domain, tags.selector, tags.signature))?.shift() : undefined));
}

/** The type and size of the key a TXT answer publishes; null when it publishes no usable key. */
function publishedKey(answer: TxtAnswer | undefined): { type: 'rsa' | 'ed25519'; bits: number } | null {
  if (answer === undefined || 'code' in answer || answer.records.length === 0) return null;
  const parsed = parseTagList(answer.records[0]!.join(''));
  const key = 'tags' in parsed ? parsed.tags.get('p')?.replace(/\s+/g, '') : undefined;
  if (!key) return null;
  const bytes = Buffer.from(key, 'base64');
  // RFC 8463: an Ed25519 key is published as its 32 bytes alone.
  if (bytes.length === 32) return { type: 'ed25519', bits: 256 };
  try {
    const published = crypto.createPublicKey({ key: bytes, format: 'der', type: 'spki' });
    if (published.asymmetricKeyType === 'ed25519') return { type: 'ed25519', bits: 256 };
    const bits = published.asymmetricKeyDetails?.modulusLength;
    return published.asymmetricKeyType === 'rsa' && bits !== undefined ? { type: 'rsa', bits } : null;
  } catch {
    return null;
  }
}

/** Whether the key record's p= is empty: the key was revoked (RFC 6376 §3.6.1). */
function revokedKey(answer: TxtAnswer | undefined): boolean {
  if (answer === undefined || 'code' in answer || answer.records.length === 0) return false;
  const parsed = parseTagList(answer.records[0]!.join(''));
  return 'tags' in parsed && parsed.tags.get('p') === '';
}

const isoTime = (seconds: number | null): string | null => {
  const time = seconds === null ? NaN : seconds * 1000;
  return Number.isFinite(new Date(time).getTime()) ? new Date(time).toISOString() : null;
};

/** The signature's result and, unless it passes, why. */
function outcomeOf(tags: DkimSignatureTags, result: VerifiedSignature | undefined, keyAnswer: TxtAnswer | undefined): { result: SignatureResult; reason: string | null } {
  if (tags.problem !== null) return { result: 'permerror', reason: tags.problem };
  if (result === undefined) return { result: 'permerror', reason: 'its tags cannot be read' };
  if (tags.bodyLength !== null && result.canonBodyLength !== undefined && result.canonBodyLength < tags.bodyLength) {
    return { result: 'fail', reason: `l=${tags.bodyLength} says that many bytes of the body were signed, but the body has ${result.canonBodyLength} (canonicalized)` };
  }
  if (result.bodyHash !== result.bodyHashExpecting) return { result: 'fail', reason: 'the body hash does not match: the body changed after it was signed' };
  const keyName = tags.keyName!;
  if (keyAnswer !== undefined && 'code' in keyAnswer) {
    return temporaryFailure(keyAnswer)
      ? { result: 'temperror', reason: `the key lookup failed: ${keyAnswer.reason}` }
      : { result: 'permerror', reason: `no key is published at ${keyName} (${keyAnswer.code === 'ENODATA' ? 'the name has no TXT record' : 'the name does not exist'}): a wrong selector, or a key not published yet` };
  }
  const { result: status, comment } = result.status;
  switch (status) {
    case 'pass':
      return { result: 'pass', reason: null };
    case 'fail':
      return { result: 'fail', reason: `the signature does not verify with the key published at ${keyName}: a signed header field changed after signing, or it was signed with another key` };
    case 'policy':
      return { result: 'policy', reason: `the key at ${keyName} is ${publishedKey(keyAnswer)?.bits ?? 'under'} bits; receivers need at least ${MIN_RSA_BITS}` };
    case 'temperror':
      return { result: 'temperror', reason: `the key lookup failed: ${comment ?? 'no answer'}` };
    default:
      if (comment === 'expired') return { result: 'fail', reason: `the signature expired at ${isoTime(tags.expiresAt) ?? 'its x= time'}` };
      if (revokedKey(keyAnswer)) return { result: 'permerror', reason: `the key at ${keyName} is revoked (its p= is empty)` };
      if (comment !== undefined && /key/.test(comment)) return { result: 'permerror', reason: `the record at ${keyName} is not a usable DKIM key (${comment})` };
      return { result: 'neutral', reason: `it could not be verified${comment ? `: ${comment}` : ''}` };
  }
}

function describeSignature(
  index: number, tags: DkimSignatureTags, result: VerifiedSignature | undefined, answers: TxtAnswers, from: FromDomain | null, present: ReadonlySet<string>,
): AuthCheckSignatureJson {
  const keyAnswer = tags.keyName === null ? undefined : answers.get(tags.keyName);
  const outcome = outcomeOf(tags, result, keyAnswer);
  const key = publishedKey(keyAnswer);
  const signed = new Set(tags.signedHeaders);
  const nullableText = (text: string | null) => (text === null ? null : clipText(text));
  const alignment = from === null ? null : alignmentOf(tags.domain === null ? null : domainName(tags.domain), from.domain, from.organizational);
  return {
    Index: index,
    Result: outcome.result,
    Reason: outcome.reason === null ? null : clipText(outcome.reason),
    Domain: nullableText(tags.domain),
    Selector: nullableText(tags.selector),
    Algorithm: nullableText(tags.algorithm),
    Canonicalization: nullableText(tags.canonicalization),
    Identity: nullableText(tags.identity),
    SignedHeaders: tags.signedHeaders.slice(0, LISTED_AT_MOST).map(clipText),
    UnsignedHeaders: SHOULD_BE_SIGNED.filter((name) => present.has(name) && !signed.has(name)),
    BodyHashMatches: result === undefined || tags.problem !== null ? null : result.bodyHash === result.bodyHashExpecting,
    BodyLength: tags.bodyLength,
    KeyType: key?.type ?? null,
    KeyBits: key?.bits ?? null,
    SignedAt: isoTime(tags.signedAt),
    ExpiresAt: isoTime(tags.expiresAt),
    Aligned: alignment === null ? null : { Relaxed: alignment.relaxed, Strict: alignment.strict },
  };
}

/** SPF is never part of it here: the message came from a test client, not from the server that will send it. */
const NO_SPF = 'SPF alignment is not evaluated (a test client sent the message)';

function describeDmarc(
  fromAddresses: readonly string[], fromDomain: string | null, from: FromDomain | null, result: DMARCResult | false, answers: TxtAnswers, signatures: readonly AuthCheckSignatureJson[],
): Findings['Dmarc'] {
  const blank = { FromDomain: null, OrganizationalDomain: null, RecordDomain: null, Record: null, Policy: null, Percent: null, DkimAlignment: null, AlignedSignature: null };
  if (fromAddresses.length !== 1) {
    const reason = fromAddresses.length === 0 ? 'the message has no From address' : `the From field holds ${fromAddresses.length} addresses`;
    return { ...blank, Result: 'permerror', Reason: `${reason}; DMARC needs exactly one` };
  }
  if (from === null || fromDomain === null || result === false) {
    return { ...blank, Result: 'permerror', Reason: `the From address's domain (${clipText(fromAddresses[0]!)}) is not a domain name` };
  }
  const domains = { FromDomain: from.domain, OrganizationalDomain: from.organizational };
  const lookups = [from.domain, from.organizational].map((domain) => ({ domain, answer: answers.get(`_dmarc.${domain}`) }));
  const failed = lookups.find(({ answer }) => answer !== undefined && temporaryFailure(answer));
  if (result.status.result === 'temperror' || failed) {
    const why = failed?.answer !== undefined && 'code' in failed.answer ? failed.answer.reason : result.error ?? 'no answer';
    return { ...blank, ...domains, Result: 'temperror', Reason: clipText(`the DMARC record could not be looked up: ${why}`) };
  }
  let found: { domain: string; record: DmarcRecord | null; text: string } | null = null;
  for (const { domain, answer } of from.organizational === from.domain ? lookups.slice(0, 1) : lookups) {
    const text = answer !== undefined && 'records' in answer ? dmarcRecordText(answer.records) : null;
    if (text !== null) {
      found = { domain, record: dmarcRecordOf(text), text };
      break;
    }
  }
  if (found === null) {
    const reason = from.organizational === from.domain ? `${from.domain} publishes no DMARC record`
      : `neither ${from.domain} nor its organizational domain ${from.organizational} publishes a DMARC record`;
    return { ...blank, ...domains, Result: 'none', Reason: reason };
  }
  if (found.record === null) {
    return {
      ...blank, ...domains, RecordDomain: found.domain, Record: clipText(found.text), Result: 'none',
      Reason: `the DMARC record of ${found.domain} is not one receivers apply (v=DMARC1 must come first, and p= name a policy)`,
    };
  }
  const { record } = found;
  const mode = record.dkimAlignment;
  const aligned = signatures.find((signature) => signature.Result === 'pass' && signature.Aligned !== null && (mode === 'strict' ? signature.Aligned.Strict : signature.Aligned.Relaxed));
  return {
    ...domains,
    RecordDomain: found.domain,
    Record: clipText(record.text),
    Policy: found.domain === from.domain ? record.policy : record.subdomainPolicy,
    Percent: record.percent,
    DkimAlignment: mode,
    AlignedSignature: aligned?.Index ?? null,
    Result: aligned ? 'pass' : 'fail',
    Reason: clipText(aligned
      ? `signature ${aligned.Index} (d=${aligned.Domain}) passes and aligns (${mode}) with ${from.domain}; ${NO_SPF}`
      : `no passing signature aligns with ${from.domain} (${mode}); ${NO_SPF}`),
  };
}

/** The ARC sets by instance, from their three fields; a field without a readable i= belongs to no set. */
function arcSetsOf(fields: readonly HeaderFieldSpan[]): ArcSet[] {
  const sets = new Map<number, ArcSet>();
  const setOf = (instance: number) => {
    const set = sets.get(instance) ?? { instance, seal: null, signature: null, results: null };
    sets.set(instance, set);
    return set;
  };
  for (const field of fields) {
    if (field.name === 'arc-seal' || field.name === 'arc-message-signature') {
      const tags = readArcField(field.value);
      if (tags.instance === null || tags.instance < 1) continue;
      const set = setOf(tags.instance);
      if (field.name === 'arc-seal') set.seal ??= tags;
      else set.signature ??= tags;
    } else if (field.name === 'arc-authentication-results') {
      const { instance, results } = splitArcAuthenticationResults(field.value);
      if (instance !== null && instance >= 1) setOf(instance).results ??= results;
    }
  }
  return [...sets.values()].sort((a, b) => a.instance - b.instance).slice(0, ARC_SETS_LISTED);
}

function describeArc(sets: readonly ArcSet[], status: { result: string; comment?: string }, answers: TxtAnswers): Findings['Arc'] {
  const text = (value: string | null | undefined) => (value === null || value === undefined ? null : clipText(value));
  const listed = sets.map((set) => ({
    Instance: set.instance,
    SealDomain: text(set.seal?.domain),
    SealSelector: text(set.seal?.selector),
    ChainValidation: text(set.seal?.chainValidation),
    SignatureDomain: text(set.signature?.domain),
    SignatureSelector: text(set.signature?.selector),
    AuthenticationResults: set.results === null ? null : parseAuthenticationResults(set.results),
  }));
  if (status.result === 'pass') return { Result: 'pass', Reason: null, Sets: listed };
  if (status.result === 'none' && sets.length === 0) return { Result: 'none', Reason: null, Sets: listed };
  // mailauth counts a key it could not fetch as a failed seal; a lookup that may answer later is not a verdict.
  const failed = sets.flatMap((set) => [set.seal?.keyName, set.signature?.keyName])
    .map((name) => (name ? answers.get(name) : undefined))
    .find((answer): answer is { code: string; reason: string } => answer !== undefined && 'code' in answer && temporaryFailure(answer));
  if (failed) return { Result: 'temperror', Reason: clipText(`a key of the chain could not be looked up: ${failed.reason}`), Sets: listed };
  return { Result: 'fail', Reason: clipText(status.comment ? `the chain does not verify: ${status.comment}` : 'the chain does not verify'), Sets: listed };
}

/** The one word a badge shows, and why: as DMARC would judge the message on DKIM alone. */
function verdictOf(signatures: readonly AuthCheckSignatureJson[], found: number, dmarcJson: Findings['Dmarc']): Findings['Verdict'] {
  if (found === 0) return { Result: 'none', Reason: 'the message carries no DKIM-Signature' };
  const name = (signature: AuthCheckSignatureJson) => `signature ${signature.Index} (d=${signature.Domain ?? '?'})`;
  const verdict = (result: Findings['Verdict']['Result'], reason: string) => ({ Result: result, Reason: clipText(reason) });
  const fromDomain = dmarcJson.FromDomain ?? 'the From domain';
  const passing = signatures.filter((signature) => signature.Result === 'pass');
  if (dmarcJson.Result === 'pass') {
    const aligned = signatures.find((signature) => signature.Index === dmarcJson.AlignedSignature)!;
    return verdict('pass', `${name(aligned)} passes and aligns with the From domain ${fromDomain}; DMARC passes`);
  }
  if (dmarcJson.Result === 'permerror') return verdict('fail', passing.length > 0 ? `${name(passing[0]!)} passes, but ${dmarcJson.Reason}` : dmarcJson.Reason);
  const strict = passing.find((signature) => signature.Aligned?.Strict);
  const relaxed = passing.find((signature) => signature.Aligned?.Relaxed);
  // With no record, relaxed alignment is DMARC's default; with a record not read yet, only the From domain's own
  // signature aligns whatever it asks.
  if (dmarcJson.Result === 'none' && relaxed) return verdict('pass', `${name(relaxed)} passes and aligns with the From domain ${fromDomain} (${dmarcJson.Reason})`);
  if (dmarcJson.Result === 'temperror' && strict) return verdict('pass', `${name(strict)} passes and is the From domain's own (${dmarcJson.Reason})`);
  const temporary = signatures.find((signature) => signature.Result === 'temperror');
  if (temporary) return verdict('temperror', `${name(temporary)} could not be verified for now: ${temporary.Reason}; check again`);
  if (dmarcJson.Result === 'temperror') return verdict('temperror', `${dmarcJson.Reason}; check again`);
  if (passing.length > 0) {
    const how = relaxed && dmarcJson.DkimAlignment === 'strict' ? ' strictly (the DMARC record asks for adkim=s)' : '';
    return verdict('fail', `${name(relaxed ?? passing[0]!)} passes but does not align${how} with the From domain ${fromDomain}`);
  }
  const first = signatures[0]!;
  return verdict('fail', `no signature passes: ${name(first)} ${first.Result === 'fail' ? 'fails' : `is ${first.Result}`}: ${first.Reason}`);
}
