// Whether a message's analysis at capture was cut short, and how its parse_error says so. Storage keeps only the
// sentence (parse_error), so the one wording is written and read back here: the content pool words every failure of a
// task with cutShortSentence, and the adapters recover the outcome of a stored message with storedAsCutShort.

/** Every sentence of an analysis cut short starts with this; parse-email.ts words no parse_error so. */
const CUT_SHORT_PREFIX = 'analysis ';

/** The sentence for an analysis cut short: `what` says what stopped it ("stopped after 5 s (the limit per message)"). */
export const cutShortSentence = (what: string): string => `${CUT_SHORT_PREFIX}${what}`;

/** The outcome a stored parse_error records: true when the analysis at capture was cut short by a limit or a crash. */
export const storedAsCutShort = (parseError: string | null): boolean => parseError?.startsWith(CUT_SHORT_PREFIX) ?? false;
