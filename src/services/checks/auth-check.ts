// The authentication check (GET /v1/messages/{id}/auth-check): the message's DKIM signatures, DMARC alignment and ARC
// chain verified on a content worker from its raw bytes, the DNS records they need looked up here (I/O only), in the
// workspace's turn, between the worker's steps; and a hint of what the envelope sender's SPF record allows.
import { contentStep } from '../../content/content-pool.js';
import type { components } from '../../contract/api-types.js';
import { clipText, LISTED_AT_MOST, temporaryFailure, type AuthCheckFindings, type AuthCheckOutcome, type TxtAnswer } from '../../domain/auth-check.js';
import { domainOfAddress } from '../../domain/domain-names.js';
import { spfRecordOf } from '../../domain/spf-hint.js';
import { AppError } from '../../errors.js';
import type { verifySenderAuthentication } from '../../mime/sender-authentication.js';
import type { NameResolver } from '../../outbound/name-resolver.js';
import { TxtLookups } from '../../outbound/txt-lookups.js';
import type { MessageCheck } from './message-check.js';

type AuthCheckJson = components['schemas']['AuthCheck'];
type SpfHintJson = AuthCheckJson['Spf'];

interface AuthCheckReport {
  findings: AuthCheckFindings;
  spf: SpfHintJson;
  lookups: number;
}

const VERIFY = contentStep<typeof verifySenderAuthentication>(import.meta.url, '../../mime/sender-authentication', 'verifySenderAuthentication');

/**
 * Names one check looks up: ten signatures' keys, two DMARC records, an SPF record and an ARC chain's keys fit, and a
 * message cannot make a check ask a stranger's name servers more than this.
 */
const LOOKUPS = { names: 24, atOnce: 4, deadlineMs: 10_000 };
/** Runs of the verification with answers: the second finds the organizational domain's DMARC record, the third older ARC keys. */
const VERIFICATION_ROUNDS = 3;

export const SPF_NOTE = 'A hint, not a verdict: this message reached the sandbox from a test client, so SPF says nothing about it here. '
  + 'A receiving server checks the address of the server that hands it the message against this record: send from a host it allows.';

/** What the envelope sender's domain publishes for SPF. */
function spfHint(domain: string | null, answer: TxtAnswer | undefined): SpfHintJson {
  const hint = { Note: SPF_NOTE, Domain: domain, Record: null, Terms: [] };
  if (domain === null || answer === undefined) return { ...hint, Status: 'none', Reason: 'neither the envelope sender nor the From address has a domain to look up' };
  if ('code' in answer) {
    return temporaryFailure(answer)
      ? { ...hint, Status: 'temperror', Reason: answer.reason }
      : { ...hint, Status: 'none', Reason: `${domain} publishes no SPF record (${answer.reason})` };
  }
  const record = spfRecordOf(answer.records);
  if (record.status === 'none') return { ...hint, Status: 'none', Reason: `${domain} publishes no SPF record` };
  if (record.status === 'permerror') return { ...hint, Status: 'permerror', Reason: `${domain} publishes ${record.count} SPF records; receivers take none of them (RFC 7208 §4.5)` };
  return { ...hint, Status: 'found', Record: clipText(record.record), Terms: record.terms.slice(0, LISTED_AT_MOST).map(clipText), Reason: `${domain} publishes an SPF record` };
}

export function authCheck(names: Pick<NameResolver, 'texts'>): MessageCheck<unknown, AuthCheckReport, AuthCheckJson, 'getMessageAuthCheck'> {
  return {
    name: 'auth-check',
    operationId: 'getMessageAuthCheck',
    title: 'authentication check',
    // The raw bytes: a signature covers them exactly as sent, and a message whose parse was cut short is still signed.
    needs: { message: 'raw', outside: 'dns' },
    budget: { requestTimeoutMs: LOOKUPS.deadlineMs, maxMessageBytes: null },
    notConfigured: null,
    async run(message, { signal }) {
      const { id, workspaceId, envelopeFrom } = message.record;
      const lookups = new TxtLookups(names, workspaceId, LOOKUPS, signal);
      let outcome: AuthCheckOutcome = await message.inPool(VERIFY, null, false);
      const envelopeDomain = domainOfAddress(envelopeFrom);
      for (let round = 1; outcome.kind === 'lookups-needed'; round++) {
        if (round > VERIFICATION_ROUNDS) throw new Error('the authentication check asked for lookups after its last round');
        // The SPF hint's record is looked up with the first names, before an ARC chain's keys can take the last places.
        await lookups.add(round === 1 && envelopeDomain !== null ? [envelopeDomain, ...outcome.names] : outcome.names);
        outcome = await message.inPool(VERIFY, lookups.answers, round === VERIFICATION_ROUNDS);
      }
      if (outcome.kind === 'header-too-large') {
        throw new AppError('analysis_limit', `the header section of message ${id} does not end within its first ${outcome.limitBytes / 1024 / 1024} MiB, which is all the authentication check reads`);
      }
      // A null sender (a bounce's) names no domain: the From domain's record is the one DMARC's SPF alignment would need.
      const spfDomain = envelopeDomain ?? outcome.findings.Dmarc.FromDomain;
      if (spfDomain !== null) await lookups.add([spfDomain]);
      return { findings: outcome.findings, spf: spfHint(spfDomain, spfDomain === null ? undefined : lookups.answers.get(spfDomain)), lookups: lookups.count };
    },
    present: ({ findings, spf, lookups }) => ({ ...findings, Spf: spf, Lookups: lookups }) satisfies AuthCheckJson,
  };
}
