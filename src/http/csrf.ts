// Cross-site request forgery checks for cookie-authenticated requests: a token only our pages can read, and the Origin.
import { timingSafeEqual } from 'node:crypto';

export const CSRF_HEADER = 'X-CSRF-Token';

/** GET and HEAD change nothing, so a link or an image on another site gains nothing by making one. */
export const changesState = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a request with an `Origin` header is not from this service's own pages; null when it is, or says nothing. */
export function foreignOriginRefusal(origin: string, expectedOrigin: string): string | null {
  if (origin === '' || origin === expectedOrigin) return null;
  return `the Origin header '${origin.slice(0, 100)}' is not this service's origin ${expectedOrigin}`;
}

/** Why a session's state-changing request is refused (naming what was wrong); null when token and Origin are right. */
export function sessionCsrfRefusal(request: { csrfHeader: string; origin: string }, csrfToken: string, expectedOrigin: string): string | null {
  if (request.csrfHeader === '') return `the ${CSRF_HEADER} header is missing; send the csrf_token from GET /v1/me`;
  if (!sameToken(request.csrfHeader, csrfToken)) return `the ${CSRF_HEADER} header does not match this session's csrf_token`;
  if (request.origin === '') return `the Origin header is missing; a session's requests other than GET must name ${expectedOrigin}`;
  return foreignOriginRefusal(request.origin, expectedOrigin);
}
