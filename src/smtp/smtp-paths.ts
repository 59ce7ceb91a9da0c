// How MAIL FROM and RCPT TO are read beyond smtp-server's own reading: a local part that is a quoted string (RFC 5321
// 4.1.2, `<"john smith"@example.test>`), which smtp-server, splitting the command at white space and the address at
// '@', refuses or reads wrong; a parameter said twice alike, which it refuses; and whether the path as sent held
// characters beyond ASCII, which its address no longer tells once it has turned a punycode domain into Unicode.
import type { SMTPServer } from 'smtp-server';

type SmtpConnection = SMTPServer['connections'] extends Set<infer C> ? C : never;
type ParsedPath = Exclude<ReturnType<SmtpConnection['_parseAddressCommand']>, false>;

/** The command up to the local part (a source route included), the quoted string, and the rest from its '@' on. */
const QUOTED_PATH = /^(\s*(?:MAIL\s+FROM|RCPT\s+TO)\s*:\s*<(?:@[^:<>\s]*:)?)("(?:[^"\\]|\\[\s\S])*")(@[\s\S]*)$/iu;

/**
 * RFC 5321 (and RFC 6531's UTF-8) qtextSMTP and quoted-pairSMTP: any character but controls, a quoted pair only of a
 * printable one; inside the quotes a bare '"' or '\' never stands. Invisible formatting characters are refused as
 * smtp-server refuses them in any address.
 */
const QUOTED_CONTENT = /^(?:[^"\\\p{Cc}\u200b\u2060\ufeff]|\\[ -~])*$/u;

/** RFC 5321 4.5.3.1.3: a path holds at most 256 octets, its angle brackets included, as smtp-server counts it. */
const MAX_ADDRESS_OCTETS = 253;

/** The parameters after the path: keyword, and `=value` when there is one. */
const PARAMETER = /\s([A-Za-z0-9][A-Za-z0-9-]*)(=\S*)?(?=\s|$)/gu;

/**
 * The keyword given twice with different values, if one is. A keyword repeated alike says it once, as Postfix reads
 * it: Python's smtplib send_message adds SMTPUTF8 and BODY=8BITMIME to the caller's own mail_options, so a caller that
 * passes ['SMTPUTF8'] as its documentation shows sends SMTPUTF8 twice.
 */
function differingRepeat(parameters: string): string | undefined {
  const values = new Map<string, string>();
  for (const [, keyword, value = ''] of parameters.matchAll(PARAMETER)) {
    const key = keyword!.toUpperCase();
    const seen = values.get(key);
    if (seen !== undefined && seen.toUpperCase() !== value.toUpperCase()) return key;
    values.set(key, value);
  }
  return undefined;
}

/** A placeholder local part smtp-server reads as any other; the quoted string takes its place again afterwards. */
const PLACEHOLDER = 'q';

/** smtp-server's reading with its `duplicate` kept only for a keyword repeated with another value. */
function withRepeats(parsed: ParsedPath, command: string): ParsedPath {
  const differing = differingRepeat(command.slice(command.lastIndexOf('>') + 1));
  const read: ParsedPath = { ...parsed };
  if (differing === undefined) delete read.duplicate;
  else read.duplicate = differing;
  return read;
}

/**
 * Makes the connection read quoted local parts in MAIL FROM and RCPT TO, and put each parsed path whose command as
 * sent held characters beyond ASCII into `beyondAscii` (smtp-server hands the same object to onMailFrom and onRcptTo).
 * The address keeps a quoted string as sent, with the domain as smtp-server has it; a quoted string that is not well
 * formed is refused as any bad address is (501). A parameter repeated alike counts once.
 */
export function readPaths(connection: SmtpConnection, beyondAscii: WeakSet<object>): void {
  const parse = connection._parseAddressCommand.bind(connection);
  const read = (name: string, command: string): ParsedPath | false => {
    const quoted = QUOTED_PATH.exec(command);
    // A quote anywhere else (`<"unclosed@x>`, `<a"b@x>`) is no local part RFC 5321 knows; smtp-server would keep it.
    if (!quoted) return /<[^<>]*"[^<>]*>/u.test(command) ? false : parse(name, command);
    const [, head, local, rest] = quoted as unknown as [string, string, string, string];
    if (!QUOTED_CONTENT.test(local.slice(1, -1))) return false;
    const parsed = parse(name, `${head}${PLACEHOLDER}${rest}`);
    if (!parsed) return false;
    const domain = parsed.address.slice(PLACEHOLDER.length + 1);
    if (Buffer.byteLength(local) + 1 + Buffer.byteLength(domain) > MAX_ADDRESS_OCTETS) return false;
    return { ...parsed, address: `${local}@${domain}` };
  };
  connection._parseAddressCommand = (name, raw) => {
    const command = raw.toString();
    const first = read(name, command);
    const parsed = first && first.duplicate !== undefined ? withRepeats(first, command) : first;
    // Parameters are ASCII (xtext, RFC 3461), so what is beyond it in the command is in the path.
    if (parsed && /[^\p{ASCII}]/u.test(command)) beyondAscii.add(parsed);
    return parsed;
  };
}
