// Who is making a request: an API key, or a person's dashboard session acting in one workspace with a role.
import type { Access, MemberRole, Person, SessionRecord, Workspace } from '../../domain/types.js';

export interface KeyPrincipal {
  kind: 'key';
  workspace: Workspace;
  keyId: string;
  access: Access;
}

export interface SessionPrincipal {
  kind: 'session';
  workspace: Workspace;
  role: MemberRole;
  person: Person;
  session: SessionRecord;
}

export type Principal = KeyPrincipal | SessionPrincipal;

/** A request's client as the sessions and the sign-in throttle see it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  /** The device cookie the browser sent (device-tokens.ts); the router sends it with sign-ins only. */
  deviceCookie: string | null;
}
