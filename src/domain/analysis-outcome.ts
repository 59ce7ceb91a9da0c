// How parse_error words an analysis cut short at capture. The outcome itself is a field of the message, stored beside
// the sentence; only search documents written before that field existed need the wording read back (legacyCutShort).

/** Every sentence of an analysis cut short starts with this; parse-email.ts words no parse_error so. */
const CUT_SHORT_PREFIX = 'analysis ';

/** The sentence for an analysis cut short: `what` says what stopped it ("stopped after 5 s (the limit per message)"). */
export const cutShortSentence = (what: string): string => `${CUT_SHORT_PREFIX}${what}`;

/** The outcome a document from before the field records in its parse_error: true when it says the analysis was cut short. */
export const legacyCutShort = (parseError: string | null): boolean => parseError?.startsWith(CUT_SHORT_PREFIX) ?? false;
