// The dashboard's API client: openapi-fetch typed by the types generated from openapi.yaml, with the session's CSRF
// token on every request that is not GET, and one place that turns the error envelope into an ApiError.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../contract/api-types.js';

export type Schemas = components['schemas'];
export type Me = Schemas['Me'];
export type Role = Schemas['Role'];

/** A refused request: the envelope's code and message (shown to people as is), and Retry-After when given. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfterSeconds: number | null) {
    super(message);
  }
}

/** Public operations: a 401 from these is a wrong password, not a lost session. */
const PUBLIC_PATHS = /\/v1\/(session|invitations\/(lookup|accept)|password-links\/(lookup|accept))$/;

let csrfToken: string | null = null;
let onSessionLost: () => void = () => undefined;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** What to do when a request answers 401 outside the public operations (the app sends people to sign in). */
export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

const session: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken !== null) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !(request.method === 'POST' && PUBLIC_PATHS.test(new URL(request.url).pathname))) onSessionLost();
    return response;
  },
};

/** The API lives beside the dashboard, under the same base path (the <base href> the server inserts). */
export function apiBaseUrl(): string {
  return new URL('.', document.baseURI).href.replace(/\/$/, '');
}

export const api = createClient<paths>({ baseUrl: apiBaseUrl(), credentials: 'same-origin' });
api.use(session);

interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

function toApiError(response: Response, error: unknown): ApiError {
  const body = (error ?? {}) as { error?: { code?: string; message?: string } };
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(
    response.status,
    body.error?.code ?? 'unexpected_response',
    body.error?.message ?? `the server answered ${response.status}`,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/** The whole success envelope (for lists with next_cursor), or an ApiError. */
export async function envelope<D>(request: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await request;
  if (data === undefined || !response.ok) throw toApiError(response, error);
  return data;
}

/** The envelope's data, or an ApiError. */
export async function call<D extends { data: unknown }>(request: Promise<Answer<D>>): Promise<D['data']> {
  return (await envelope(request)).data;
}
