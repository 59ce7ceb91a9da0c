// AccountStore on SQLite: people, memberships, sessions, invitations, password links and the audit log.
import type Database from 'better-sqlite3';
import type { AuditAction, AuditEntry, Invitation, Member, MemberRole, PasswordLink, Person, SessionRecord } from '../../domain/types.js';
import type {
  AcceptInvitationOutcome, AccountStore, AuditPosition, CreateInvitationOutcome, MembershipChangeOutcome,
} from '../ports.js';
import { guarded, statementCache, type SqliteDatabase } from './sqlite-database.js';

interface PersonRow {
  id: string; email: string; password_hash: string | null; created_at: number; password_changed_at: number | null;
  origin_kind: string; origin_workspace_id: string | null; origin_invitation_id: string | null; origin_invited_by: string | null; proved_at: number | null;
}
interface MemberRow { workspace_id: string; email: string; role: string; created_at: number }
interface SessionRow {
  id: string; token_hash: string; person_id: string; workspace_id: string; csrf_token: string; created_at: number; last_seen_at: number;
  expires_at: number; idle_expires_at: number; user_agent: string | null; ip: string | null;
}
interface InvitationRow {
  id: string; workspace_id: string; email: string; role: string; token_hash: string; invited_by: string; created_at: number;
  expires_at: number; accepted_at: number | null; revoked_at: number | null;
}
interface PasswordLinkRow { token_hash: string; email: string; created_at: number; expires_at: number; used_at: number | null }
interface AuditRow { id: string; workspace_id: string; at: number; actor: string; action: string; target: string | null; details: string }

const optionalDate = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

const toPerson = (row: PersonRow): Person => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: new Date(row.created_at),
  passwordChangedAt: optionalDate(row.password_changed_at),
  origin: row.origin_kind === 'invitation'
    ? { kind: 'invitation', workspaceId: row.origin_workspace_id!, invitationId: row.origin_invitation_id!, invitedBy: row.origin_invited_by! }
    : { kind: 'operator' },
  provedAt: optionalDate(row.proved_at),
});
const toMember = (row: MemberRow): Member => ({ workspaceId: row.workspace_id, email: row.email, role: row.role as MemberRole, createdAt: new Date(row.created_at) });
const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  tokenHash: row.token_hash,
  personId: row.person_id,
  workspaceId: row.workspace_id,
  csrfToken: row.csrf_token,
  createdAt: new Date(row.created_at),
  lastSeenAt: new Date(row.last_seen_at),
  expiresAt: new Date(row.expires_at),
  idleExpiresAt: new Date(row.idle_expires_at),
  userAgent: row.user_agent,
  ip: row.ip,
});
const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  role: row.role as MemberRole,
  tokenHash: row.token_hash,
  invitedBy: row.invited_by,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  acceptedAt: optionalDate(row.accepted_at),
  revokedAt: optionalDate(row.revoked_at),
});
const toPasswordLink = (row: PasswordLinkRow): PasswordLink => ({
  tokenHash: row.token_hash, email: row.email, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at), usedAt: optionalDate(row.used_at),
});
const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  workspaceId: row.workspace_id,
  at: new Date(row.at),
  actor: row.actor,
  action: row.action as AuditAction,
  target: row.target,
  details: JSON.parse(row.details) as Record<string, string | null>,
});

/** A session is live until the earlier of its two ends; the parameter is now, in epoch ms. */
const LIVE_SESSION = 'min(expires_at, idle_expires_at) > ?';
/** An invitation is pending until accepted, revoked or expired; the parameter is the time asked about. */
const PENDING_INVITATION = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?';

/*
 * Ended sessions are filtered out of every read and deleted by the writes that create or end sessions, never by a
 * read: a DELETE commits, and fsyncs, on what is otherwise every request's lookup. The audit log is kept whole;
 * on disk it costs little and the port only asks for at least the newest 10,000.
 */
export class SqliteAccountStore implements AccountStore {
  private readonly sql: (sql: string) => Database.Statement;

  constructor(private readonly db: SqliteDatabase, private readonly now: () => number = Date.now) {
    this.sql = statementCache(db);
  }

  createPerson(person: Person): Promise<'created' | 'email_taken'> {
    return guarded(() => this.db.transaction(() => this.insertPerson(person)).immediate());
  }

  /** Inside a transaction. */
  private insertPerson(person: Person): 'created' | 'email_taken' {
    if (this.sql('SELECT 1 FROM people WHERE email = ?').get(person.email)) return 'email_taken';
    const { origin } = person;
    const [workspaceId, invitationId, invitedBy] = origin.kind === 'invitation' ? [origin.workspaceId, origin.invitationId, origin.invitedBy] : [null, null, null];
    this.sql(`INSERT INTO people (id, email, password_hash, created_at, password_changed_at, origin_kind, origin_workspace_id, origin_invitation_id,
              origin_invited_by, proved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(person.id, person.email, person.passwordHash, person.createdAt.getTime(), person.passwordChangedAt?.getTime() ?? null, origin.kind, workspaceId,
        invitationId, invitedBy, person.provedAt?.getTime() ?? null);
    return 'created';
  }

  getPerson(id: string): Promise<Person | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM people WHERE id = ?').get(id) as PersonRow | undefined;
      return row ? toPerson(row) : null;
    });
  }

  findPersonByEmail(email: string): Promise<Person | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM people WHERE email = ?').get(email) as PersonRow | undefined;
      return row ? toPerson(row) : null;
    });
  }

  setPersonPassword(id: string, passwordHash: string, at: Date, proved: boolean): Promise<boolean> {
    return guarded(() => this.sql('UPDATE people SET password_hash = ?, password_changed_at = ?, proved_at = CASE WHEN ? THEN ? ELSE proved_at END WHERE id = ?')
      .run(passwordHash, at.getTime(), proved ? 1 : 0, at.getTime(), id).changes === 1);
  }

  getMember(workspaceId: string, email: string): Promise<Member | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM members WHERE workspace_id = ? AND email = ?').get(workspaceId, email) as MemberRow | undefined;
      return row ? toMember(row) : null;
    });
  }

  listMembers(workspaceId: string): Promise<Member[]> {
    return guarded(() => (this.sql('SELECT * FROM members WHERE workspace_id = ? ORDER BY created_at, email').all(workspaceId) as MemberRow[]).map(toMember));
  }

  listMembershipsOf(email: string): Promise<Member[]> {
    return guarded(() => (this.sql('SELECT * FROM members WHERE email = ? ORDER BY created_at, workspace_id').all(email) as MemberRow[]).map(toMember));
  }

  setMemberRole(workspaceId: string, email: string, role: MemberRole): Promise<MembershipChangeOutcome> {
    return guarded(() => this.db.transaction((): MembershipChangeOutcome => {
      const current = this.roleOf(workspaceId, email);
      if (current === null) return 'not_found';
      if (current === 'owner' && role !== 'owner' && this.ownerCount(workspaceId) === 1) return 'last_owner';
      this.sql('UPDATE members SET role = ? WHERE workspace_id = ? AND email = ?').run(role, workspaceId, email);
      return 'changed';
    }).immediate());
  }

  removeMember(workspaceId: string, email: string): Promise<MembershipChangeOutcome> {
    return guarded(() => this.db.transaction((): MembershipChangeOutcome => {
      const current = this.roleOf(workspaceId, email);
      if (current === null) return 'not_found';
      if (current === 'owner' && this.ownerCount(workspaceId) === 1) return 'last_owner';
      this.sql('DELETE FROM members WHERE workspace_id = ? AND email = ?').run(workspaceId, email);
      return 'changed';
    }).immediate());
  }

  private roleOf(workspaceId: string, email: string): MemberRole | null {
    const row = this.sql('SELECT role FROM members WHERE workspace_id = ? AND email = ?').get(workspaceId, email) as { role: MemberRole } | undefined;
    return row?.role ?? null;
  }

  private ownerCount(workspaceId: string): number {
    return (this.sql("SELECT count(*) AS n FROM members WHERE workspace_id = ? AND role = 'owner'").get(workspaceId) as { n: number }).n;
  }

  createSession(session: SessionRecord): Promise<void> {
    return guarded(() => this.db.transaction(() => {
      this.sql('DELETE FROM sessions WHERE min(expires_at, idle_expires_at) <= ?').run(this.now());
      this.sql(`INSERT INTO sessions (id, token_hash, person_id, workspace_id, csrf_token, created_at, last_seen_at, expires_at, idle_expires_at, user_agent, ip)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(session.id, session.tokenHash, session.personId, session.workspaceId, session.csrfToken, session.createdAt.getTime(),
          session.lastSeenAt.getTime(), session.expiresAt.getTime(), session.idleExpiresAt.getTime(), session.userAgent, session.ip);
    }).immediate());
  }

  findSession(tokenHash: string): Promise<SessionRecord | null> {
    return guarded(() => {
      const row = this.sql(`SELECT * FROM sessions WHERE token_hash = ? AND ${LIVE_SESSION}`).get(tokenHash, this.now()) as SessionRow | undefined;
      return row ? toSession(row) : null;
    });
  }

  touchSession(tokenHash: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void> {
    return guarded(() => {
      // Forward only: touches from concurrent requests may finish in either order.
      this.sql(`UPDATE sessions SET last_seen_at = max(last_seen_at, ?), idle_expires_at = max(idle_expires_at, min(?, expires_at))
                WHERE token_hash = ? AND ${LIVE_SESSION}`)
        .run(lastSeenAt.getTime(), idleExpiresAt.getTime(), tokenHash, this.now());
    });
  }

  setSessionWorkspace(tokenHash: string, workspaceId: string): Promise<boolean> {
    return guarded(() => this.sql(`UPDATE sessions SET workspace_id = ? WHERE token_hash = ? AND ${LIVE_SESSION}`).run(workspaceId, tokenHash, this.now()).changes === 1);
  }

  listSessions(personId: string): Promise<SessionRecord[]> {
    return guarded(() => (this.sql(`SELECT * FROM sessions WHERE person_id = ? AND ${LIVE_SESSION} ORDER BY created_at DESC, id DESC`)
      .all(personId, this.now()) as SessionRow[]).map(toSession));
  }

  deleteSession(personId: string, id: string): Promise<boolean> {
    return guarded(() => this.sql(`DELETE FROM sessions WHERE person_id = ? AND id = ? AND ${LIVE_SESSION}`).run(personId, id, this.now()).changes === 1);
  }

  deleteSessions(personId: string, options: { exceptId?: string; workspaceId?: string } = {}): Promise<number> {
    return guarded(() => this.sql(`DELETE FROM sessions WHERE person_id = ? AND ${LIVE_SESSION} AND id IS NOT ? AND (? IS NULL OR workspace_id = ?)`)
      .run(personId, this.now(), options.exceptId ?? null, options.workspaceId ?? null, options.workspaceId ?? null).changes);
  }

  createInvitation(invitation: Invitation, memberLimit: number | null): Promise<CreateInvitationOutcome> {
    return guarded(() => this.db.transaction((): CreateInvitationOutcome => {
      const { workspaceId, email } = invitation;
      const at = invitation.createdAt.getTime();
      if (this.sql('SELECT 1 FROM members WHERE workspace_id = ? AND email = ?').get(workspaceId, email)) return 'already_member';
      if (memberLimit !== null) {
        const members = (this.sql('SELECT count(*) AS n FROM members WHERE workspace_id = ?').get(workspaceId) as { n: number }).n;
        const others = (this.sql(`SELECT count(*) AS n FROM invitations WHERE workspace_id = ? AND email <> ? AND ${PENDING_INVITATION}`)
          .get(workspaceId, email, at) as { n: number }).n;
        if (members + others + 1 > memberLimit) return 'limit_reached';
      }
      this.sql(`UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND email = ? AND ${PENDING_INVITATION}`).run(at, workspaceId, email, at);
      this.sql(`INSERT INTO invitations (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at, revoked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(invitation.id, workspaceId, email, invitation.role, invitation.tokenHash, invitation.invitedBy, at, invitation.expiresAt.getTime(),
          invitation.acceptedAt?.getTime() ?? null, invitation.revokedAt?.getTime() ?? null);
      return 'created';
    }).immediate());
  }

  listInvitations(workspaceId: string, since: Date): Promise<Invitation[]> {
    return guarded(() => (this.sql('SELECT * FROM invitations WHERE workspace_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC')
      .all(workspaceId, since.getTime()) as InvitationRow[]).map(toInvitation));
  }

  findInvitationByTokenHash(tokenHash: string): Promise<Invitation | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM invitations WHERE token_hash = ?').get(tokenHash) as InvitationRow | undefined;
      return row ? toInvitation(row) : null;
    });
  }

  revokeInvitation(workspaceId: string, id: string, at: Date): Promise<boolean> {
    return guarded(() => this.sql(`UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND ${PENDING_INVITATION}`)
      .run(at.getTime(), workspaceId, id, at.getTime()).changes === 1);
  }

  /** An email that is a member already uses the invitation up too; at the limit it stays pending, for when a seat is free. */
  acceptInvitation(tokenHash: string, at: Date, memberLimit: number | null, newPerson: Person | null): Promise<AcceptInvitationOutcome> {
    return guarded(() => this.db.transaction((): AcceptInvitationOutcome => {
      const row = this.sql(`SELECT * FROM invitations WHERE token_hash = ? AND ${PENDING_INVITATION}`).get(tokenHash, at.getTime()) as InvitationRow | undefined;
      if (!row) return { outcome: 'invalid' };
      const member = this.sql('SELECT 1 FROM members WHERE workspace_id = ? AND email = ?').get(row.workspace_id, row.email);
      if (!member) {
        const members = (this.sql('SELECT count(*) AS n FROM members WHERE workspace_id = ?').get(row.workspace_id) as { n: number }).n;
        if (memberLimit !== null && members >= memberLimit) return { outcome: 'limit_reached', invitation: toInvitation(row) };
      }
      // Last of the checks, and nothing written before it: a refusal leaves everything as it was.
      if (newPerson !== null && this.insertPerson(newPerson) === 'email_taken') return { outcome: 'email_taken' };
      if (!member) {
        this.sql('INSERT INTO members (workspace_id, email, role, created_at) VALUES (?, ?, ?, ?)').run(row.workspace_id, row.email, row.role, at.getTime());
      }
      const accepted = this.sql('UPDATE invitations SET accepted_at = ? WHERE id = ? RETURNING *').get(at.getTime(), row.id) as InvitationRow;
      return { outcome: member ? 'already_member' : 'accepted', invitation: toInvitation(accepted) };
    }).immediate());
  }

  createPasswordLink(link: PasswordLink): Promise<void> {
    return guarded(() => this.db.transaction(() => {
      // Expired links can never be used; they go when a new one comes, so the table holds only recent ones. The
      // email's unused links go too: only the newest one sets the password.
      this.sql('DELETE FROM password_links WHERE expires_at <= ? OR (email = ? AND used_at IS NULL AND token_hash <> ?)').run(this.now(), link.email, link.tokenHash);
      this.sql('INSERT INTO password_links (token_hash, email, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)')
        .run(link.tokenHash, link.email, link.createdAt.getTime(), link.expiresAt.getTime(), link.usedAt?.getTime() ?? null);
    }).immediate());
  }

  findPasswordLink(tokenHash: string): Promise<PasswordLink | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM password_links WHERE token_hash = ?').get(tokenHash) as PasswordLinkRow | undefined;
      return row ? toPasswordLink(row) : null;
    });
  }

  usePasswordLink(tokenHash: string, at: Date): Promise<PasswordLink | null> {
    return guarded(() => {
      const row = this.sql('UPDATE password_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *')
        .get(at.getTime(), tokenHash, at.getTime()) as PasswordLinkRow | undefined;
      return row ? toPasswordLink(row) : null;
    });
  }

  appendAudit(entry: AuditEntry): Promise<void> {
    return guarded(() => {
      this.sql('INSERT INTO audit_log (id, workspace_id, at, actor, action, target, details) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(entry.id, entry.workspaceId, entry.at.getTime(), entry.actor, entry.action, entry.target, JSON.stringify(entry.details));
    });
  }

  listAudit(workspaceId: string, limit: number, after: AuditPosition | null): Promise<AuditEntry[]> {
    return guarded(() => {
      const rows = after === null
        ? this.sql('SELECT * FROM audit_log WHERE workspace_id = ? ORDER BY at DESC, id DESC LIMIT ?').all(workspaceId, limit)
        : this.sql('SELECT * FROM audit_log WHERE workspace_id = ? AND (at, id) < (?, ?) ORDER BY at DESC, id DESC LIMIT ?')
          .all(workspaceId, after.at.getTime(), after.id, limit);
      return (rows as AuditRow[]).map(toAuditEntry);
    });
  }
}
