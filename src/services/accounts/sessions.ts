// Dashboard sessions: started at sign-in, resolved from the cookie on every request (on any node), ended on demand,
// on idle and on an absolute deadline. The cookie holds a random token; the store keeps only its hash.
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { hashSecret, newOpaqueToken } from '../../domain/secrets.js';
import type { Person, SessionRecord } from '../../domain/types.js';
import type { AccountStore, MetadataStore } from '../../storage/ports.js';
import type { ClientInfo, SessionPrincipal } from './principal.js';

export interface SessionPolicy {
  /** A session unused this long ends. */
  idleMinutes: number;
  /** A session ends this long after sign-in, used or not. */
  maxHours: number;
}

/** lastSeenAt is kept to the minute: one write a minute per session, not one per request. */
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_CHARS = 200;

const ENDED = 'your session has ended; sign in again';

export class SessionService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly metadata: MetadataStore,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private idleEnd(from: Date, expiresAt: Date): Date {
    return new Date(Math.min(from.getTime() + this.policy.idleMinutes * 60_000, expiresAt.getTime()));
  }

  /** Resolves to the cookie's token (never stored) and the session record. */
  async start(person: Person, workspaceId: string, client: ClientInfo): Promise<{ token: string; session: SessionRecord }> {
    const now = this.now();
    const token = newOpaqueToken();
    const expiresAt = new Date(now.getTime() + this.policy.maxHours * 3_600_000);
    const session: SessionRecord = {
      id: newId('ses', now.getTime()),
      tokenHash: hashSecret(token),
      personId: person.id,
      workspaceId,
      csrfToken: newOpaqueToken(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      idleExpiresAt: this.idleEnd(now, expiresAt),
      userAgent: client.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
      ip: client.ip,
    };
    await this.accounts.createSession(session);
    return { token, session };
  }

  /**
   * The session a cookie names, with its person, workspace and role there; 401 when it is unknown, expired, or its
   * person is no longer a member of its workspace (then the session is ended too).
   */
  async resolve(token: string): Promise<SessionPrincipal> {
    const session = await this.accounts.findSession(hashSecret(token));
    if (!session) throw new AppError('unauthorized', ENDED);
    const now = this.now();
    if (now >= session.expiresAt || now >= session.idleExpiresAt) {
      await this.accounts.deleteSession(session.personId, session.id);
      throw new AppError('unauthorized', ENDED);
    }
    const person = await this.accounts.getPerson(session.personId);
    const member = person && await this.accounts.getMember(session.workspaceId, person.email);
    const workspace = member && await this.metadata.getWorkspace(session.workspaceId);
    if (!person || !member || !workspace) {
      await this.accounts.deleteSession(session.personId, session.id);
      throw new AppError('unauthorized', ENDED);
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      session.lastSeenAt = now;
      session.idleExpiresAt = this.idleEnd(now, session.expiresAt);
      await this.accounts.touchSession(session.tokenHash, session.lastSeenAt, session.idleExpiresAt);
    }
    return { kind: 'session', workspace, role: member.role, person, session };
  }

  /** The person's sessions that have not ended, newest first. */
  async list(personId: string): Promise<SessionRecord[]> {
    const now = this.now();
    return (await this.accounts.listSessions(personId)).filter((session) => now < session.expiresAt && now < session.idleExpiresAt);
  }

  async end(personId: string, id: string): Promise<void> {
    if (!(await this.accounts.deleteSession(personId, id))) throw new AppError('not_found', `no session with id '${id}'`);
  }

  /** Every session of the person but `exceptId` (all when absent); resolves to how many ended. */
  endAll(personId: string, exceptId?: string): Promise<number> {
    return this.accounts.deleteSessions(personId, exceptId === undefined ? {} : { exceptId });
  }

  endIn(personId: string, workspaceId: string): Promise<number> {
    return this.accounts.deleteSessions(personId, { workspaceId });
  }

  /** Resolves to the session as it now is: acting in that workspace, with the person's role there. */
  async switchWorkspace(principal: SessionPrincipal, workspaceId: string): Promise<SessionPrincipal> {
    const member = await this.accounts.getMember(workspaceId, principal.person.email);
    const workspace = member && await this.metadata.getWorkspace(workspaceId);
    if (!member || !workspace || !(await this.accounts.setSessionWorkspace(principal.session.tokenHash, workspaceId))) {
      throw new AppError('not_found', `you are no member of a workspace with id '${workspaceId}'`);
    }
    return { ...principal, workspace, role: member.role, session: { ...principal.session, workspaceId } };
  }
}
