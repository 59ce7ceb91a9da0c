// The SMTP policy chain (Haraka's hook list, in types): each policy answers a command with "continue" or a refusal
// from the one error table, and the first that does not continue decides.
import type { AppError, ErrorCode } from '../errors.js';
import type { Inbox } from '../domain/types.js';

/** What a policy is asked about: the session at one command, with the inbox as it is now. */
export interface PolicyContext {
  /** The smtp-server session id, for logs. */
  sessionId: string;
  /**
   * The session's inbox as storage holds it now, read again for this command (null: it was deleted). Read once per
   * command, when first asked for.
   */
  inbox(): Promise<Inbox | null>;
  /** The SMTP password hash the session logged in with; null at AUTH. */
  loginPasswordHash: string | null;
  /** RCPT TO accepted so far in this transaction. */
  recipients: number;
  /**
   * At MAIL FROM and RCPT TO: the command's address as smtp-server read it ('' for the null sender, a punycode domain
   * in Unicode), and whether the path as sent held characters beyond ASCII; null at the other commands.
   */
  path: { address: string; beyondAscii: boolean } | null;
  /** The transaction declared SMTPUTF8 (RFC 6531) on its MAIL FROM. */
  smtpUtf8: boolean;
  /** At DATA: the message went past the size limit (smtp-server drained the rest unread). */
  sizeExceeded: boolean;
}

/**
 * At AUTH: the login (session-policies.ts) has found the inbox the credentials open before any policy is asked, so
 * every AUTH hook is handed that inbox, whatever the order of the policies.
 */
export interface LoginContext extends PolicyContext {
  inbox(): Promise<Inbox>;
}

/** The commands policies have hooks for, and what each hook is asked with. */
export interface PolicyContexts {
  auth: LoginContext;
  mail: PolicyContext;
  rcpt: PolicyContext;
  data: PolicyContext;
}
export type PolicyHook = keyof PolicyContexts;

export type Verdict =
  | { kind: 'continue' }
  /** Answer with the error's SMTP reply; `close`: then close the connection. */
  | { kind: 'refuse'; error: AppError; close: boolean }
  /** Close the connection without a reply; `code` says why, for the capture metric. */
  | { kind: 'drop'; code: ErrorCode };

export const CONTINUE: Verdict = { kind: 'continue' };

export const refuse = (error: AppError, options: { close?: boolean } = {}): Verdict => ({ kind: 'refuse', error, close: options.close ?? false });

/**
 * A policy answers the commands it has a hook for: AUTH (once the credentials opened an inbox), MAIL FROM, RCPT TO,
 * and DATA (once the whole message arrived, before it is stored). It refuses by returning a refusal, or by throwing an
 * AppError (a storage failure, the pipeline's quota_reached), which is answered alike.
 */
export type SmtpPolicy = { readonly [Hook in PolicyHook]?: (context: PolicyContexts[Hook]) => Promise<Verdict> };

/** Asks the policies in order; the first that does not continue decides. */
export async function decide<Hook extends PolicyHook>(policies: readonly SmtpPolicy[], hook: Hook, context: PolicyContexts[Hook]): Promise<Verdict> {
  for (const policy of policies) {
    const verdict = await policy[hook]?.(context);
    if (verdict && verdict.kind !== 'continue') return verdict;
  }
  return CONTINUE;
}
