// The authentication check's task in the content pool: the DNS answers it is given and what it answers (names to look
// up first, or its findings). The report itself is the contract's AuthCheck and the schemas it names.
import type { components } from '../contract/api-types.js';

type Schemas = components['schemas'];

/** What a check of the message's bytes found: the report less the SPF hint and the count of lookups, which the service adds. */
export type AuthCheckFindings = Omit<Schemas['AuthCheck'], 'Spf' | 'Lookups'>;
export type AuthCheckSignatureJson = Schemas['AuthCheckSignature'];
export type AuthResultsFieldJson = Schemas['AuthResultsField'];

/** A TXT lookup's outcome: each record as its character strings, or the lookup error's code and sentence. */
export type TxtAnswer = { records: string[][] } | { code: string; reason: string };

/** By name in lower case, as domainName writes it. A Map: names are strangers' text, never object keys. */
export type TxtAnswers = ReadonlyMap<string, TxtAnswer>;

/** The codes that say a name has no such record for good: anything else may answer another time. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

/** Whether a failed lookup may succeed later (a timeout, no name server, a refusal for now, a lookup not made). */
export const temporaryFailure = (answer: TxtAnswer): boolean => 'code' in answer && !ABSENT.has(answer.code);

/** The code of an answer given without asking DNS: the check's lookups were all spent. */
export const NOT_LOOKED_UP = 'ENOTLOOKEDUP';

export type AuthCheckOutcome =
  /** These names must be looked up first; run the check again with their answers added. */
  | { kind: 'lookups-needed'; names: string[] }
  /** The header section does not end within the bytes a header is read from. */
  | { kind: 'header-too-large'; limitBytes: number }
  | { kind: 'verified'; findings: AuthCheckFindings };

/** Strings the message or a DNS record holds are cut at this many characters, lists at LISTED_AT_MOST entries. */
export const TEXT_AT_MOST = 1000;
export const LISTED_AT_MOST = 100;

export const clipText = (text: string): string => (text.length > TEXT_AT_MOST ? `${text.slice(0, TEXT_AT_MOST - 1)}…` : text);
