// Whether a link looks like one a request could spend: a password reset, an email verification, a magic sign-in, an
// invitation, an unsubscribe, or anything carrying a token. The link check skips such links when asked to
// (skip_one_time), so a dashboard that checks links on its own never uses up the link a test is about to follow.
// It errs on the side of skipping: a skipped link costs one press of "Check links", a spent one costs the test.

/** Words in a path or a parameter name that say what the link does. */
const ACTION_WORDS = /(?:^|[^a-z])(reset|verify|verification|confirm|confirmation|activate|activation|magic|invite|invitation|accept|unsubscribe|opt-?out|one-?time|otp|passwordless|login-link|sign-?in-link|approve|claim|redeem)(?:[^a-z]|$)/i;

/** Parameter names that carry a secret or a one-time value. */
const SECRET_PARAMETERS = new Set(['token', 'code', 'otp', 'key', 'sig', 'signature', 'hash', 'auth', 'ticket', 'nonce', 'oobcode', 'jwt', 'access_token', 'id_token', 'secret', 'hmac', 'expires', 'session']);

/** A value long and mixed enough to be a generated secret (a token, a signature), not a word or an id. */
function looksGenerated(value: string): boolean {
  return value.length >= 20 && /^[A-Za-z0-9_.~%=+/-]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** Why the link looks one-time, or null when it does not. */
export function oneTimeReason(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const action = ACTION_WORDS.exec(decodeURIComponentSafe(url.pathname));
  if (action) return `its path says ${action[1]!.toLowerCase()}`;
  for (const [name, value] of url.searchParams) {
    const lower = name.toLowerCase();
    if (SECRET_PARAMETERS.has(lower) || lower.endsWith('_token') || lower.endsWith('token')) return `it carries ${name}=`;
    if (ACTION_WORDS.test(lower)) return `its query says ${lower}`;
    if (looksGenerated(value)) return `its ${name}= value looks generated`;
  }
  const generated = url.pathname.split('/').find(looksGenerated);
  if (generated) return 'its path holds a value that looks generated';
  return null;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
