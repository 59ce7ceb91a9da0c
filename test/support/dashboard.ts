// A browser-like client of the dashboard's API: it keeps the session cookie and the device cookie (sent, as a browser
// does, only on its path), sends the CSRF token and this service's Origin (as the web application does), and checks
// every response against openapi.yaml like ApiClient.
import { strict as assert } from 'node:assert';
import { ApiClient, type ApiResponse } from './api-client.js';
import type { InvitationWithLinkJson, MeJson } from './api-json.js';
import { expectOk } from './envelope.js';
import type { StartedServer } from './server.js';

export interface SessionRequestOptions {
  body?: unknown;
  /** Leave the X-CSRF-Token header out. */
  withoutCsrf?: boolean;
  /** The Origin header to send; this service's origin unless given ('' sends none). */
  origin?: string;
  /** More headers, e.g. a reverse proxy's X-Forwarded-*. */
  headers?: Record<string, string>;
}

export class SessionClient {
  private readonly api: ApiClient;
  cookie: string | null = null;
  /** `sbx_device=...`, set by a sign-in with the right password. */
  deviceCookie: string | null = null;
  csrfToken: string | null = null;
  me: MeJson | null = null;

  constructor(readonly baseUrl: string) {
    this.api = new ApiClient(baseUrl, null);
  }

  get origin(): string {
    return new URL(this.baseUrl).origin;
  }

  async request<T = unknown>(method: string, path: string, options: SessionRequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const cookies = [this.cookie, path.startsWith('/v1/session') ? this.deviceCookie : null].filter((cookie) => cookie !== null);
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    if (this.csrfToken && !options.withoutCsrf) headers['x-csrf-token'] = this.csrfToken;
    const origin = options.origin ?? this.origin;
    if (origin !== '') headers.origin = origin;
    const response = await this.api.request<T>(method, path, { body: options.body, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (name === 'sbx_session') this.cookie = value ? `sbx_session=${value}` : null;
      if (name === 'sbx_device') this.deviceCookie = value ? `sbx_device=${value}` : null;
    }
    return response;
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }

  /** Signs in and keeps the cookie and the CSRF token; resolves to the response. */
  async signIn(email: string, password: string, workspaceId?: string): Promise<ApiResponse<unknown>> {
    const response = await this.request('POST', '/v1/session', { body: { email, password, ...(workspaceId ? { workspace_id: workspaceId } : {}) } });
    if (response.status === 201) {
      this.me = expectOk<MeJson>(response, 201);
      this.csrfToken = this.me.csrf_token;
    }
    return response;
  }
}

/** The token in a one-time link's fragment. */
export function linkToken(url: string): string {
  const token = /#token=([A-Za-z0-9_-]+)$/.exec(url)?.[1];
  assert.ok(token, `no token in ${url}`);
  return token;
}

/** The set-password link the server printed on its first start. */
export function firstRunLink(server: StartedServer): string {
  const entry = server.logs.find((line) => typeof line.set_password_url === 'string');
  assert.ok(entry, 'the first start printed no set_password_url');
  return entry.set_password_url as string;
}

export const OWNER_EMAIL = 'owner@localhost';
export const OWNER_PASSWORD = 'owner password 123';

/** First start: sets the owner's password with the printed link and signs in. */
export async function signInFirstOwner(server: StartedServer): Promise<SessionClient> {
  const client = new SessionClient(server.httpUrl);
  expectOk(await client.request('POST', '/v1/password-links/accept', { body: { token: linkToken(firstRunLink(server)), password: OWNER_PASSWORD } }));
  expectOk(await client.signIn(OWNER_EMAIL, OWNER_PASSWORD), 201);
  return client;
}

/** Invites the email with the role, accepts as a new account with the password, and signs the new person in. */
export async function inviteAndSignIn(inviter: SessionClient, email: string, role: 'owner' | 'admin' | 'member', password: string): Promise<SessionClient> {
  const invitation = expectOk<InvitationWithLinkJson>(await inviter.request('POST', '/v1/invitations', { body: { email, role } }), 201);
  const invitee = new SessionClient(inviter.baseUrl);
  expectOk(await invitee.request('POST', '/v1/invitations/accept', { body: { token: linkToken(invitation.url), password } }));
  expectOk(await invitee.signIn(email, password), 201);
  return invitee;
}
