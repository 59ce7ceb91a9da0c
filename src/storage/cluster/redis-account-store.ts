// AccountStore on Redis: people, memberships, sessions, invitations, password links and the audit log, shared by every node.
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.js';
import type { AuditAction, AuditEntry, Invitation, Member, MemberRole, PasswordLink, Person, SessionRecord } from '../../domain/types.js';
import type {
  AcceptInvitationOutcome, AccountStore, AuditPosition, CreateInvitationOutcome, MembershipChangeOutcome,
} from '../ports.js';
import { guardedRedis, LuaScript } from './redis-connection.js';
import { date, exists, fieldsOf, GET_INDEXED, pairs, type Fields } from './redis-records.js';
import { MEMBERSHIP_LUA, toMember } from './redis-memberships.js';

/*
 * Records are hashes with dates as epoch milliseconds, as in the metadata store. Sessions and password links
 * expire in Redis when they end (PEXPIREAT), so ended ones are forgotten without a sweeper; each person's
 * `person-sessions` set is pruned of sessions that expired whenever a script walks it, and itself expires with
 * the person's last session. Invitations stay (the team page lists recent ones); `pending-invitations` holds
 * those not accepted or revoked, scored by expiry, so limit checks count only live ones. The audit log of a
 * workspace is one sorted set ordered by member text (see auditMember), trimmed to the newest AUDIT_KEPT.
 * Every check-then-write is one Lua script, which Redis runs without interleaving other commands.
 */

/** The port promises at least this many newest entries per workspace; older ones are trimmed to bound memory. */
const AUDIT_KEPT = 10_000;

/** Lets a set expire no sooner than `ms`, keeping a later expiry it has (PEXPIRETIME is -1 without one). */
const EXTEND_LUA = `
local function extend(key, ms)
  if redis.call('PEXPIRETIME', key) < tonumber(ms) then redis.call('PEXPIREAT', key, ms) end
end
`;

/** The live sessions of a person's set as {token hash, fields}, dropping entries whose session expired. */
const LIVE_SESSIONS_LUA = `
local function live_sessions(set, session_prefix)
  local sessions = {}
  for _, token in ipairs(redis.call('ZRANGE', set, 0, -1)) do
    local session = redis.call('HGETALL', session_prefix .. token)
    if #session == 0 then
      redis.call('ZREM', set, token)
    else
      local fields = {}
      for i = 1, #session, 2 do fields[session[i]] = session[i + 1] end
      table.insert(sessions, { token = token, fields = fields, flat = session })
    end
  end
  return sessions
end
`;

/** KEYS: person, email index. ARGV: id, field/value pairs. */
const CREATE_PERSON = new LuaScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then return 'email_taken' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'conflict' end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SET', KEYS[2], ARGV[1])
return 'created'
`);

/** Sets fields of a record only if it exists; 1 when it did. KEYS: record. ARGV: field/value pairs. */
const UPDATE_EXISTING = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`);

/** The email's memberships as {workspace id, record} pairs, oldest first. KEYS: memberships. ARGV: members key prefix, email. */
const LIST_MEMBERSHIPS = new LuaScript(`
local found = {}
for _, workspace in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local record = redis.call('HGET', ARGV[1] .. workspace, ARGV[2])
  if record then table.insert(found, { workspace, record }) end
end
return found
`);

/** KEYS: members. ARGV: email, role. Returns setMemberRole's outcome. */
const SET_MEMBER_ROLE = new LuaScript(`${MEMBERSHIP_LUA}
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return 'not_found' end
local member = cjson.decode(record)
if member.role == 'owner' and ARGV[2] ~= 'owner' and owner_count(KEYS[1]) == 1 then return 'last_owner' end
redis.call('HSET', KEYS[1], ARGV[1], member_record(ARGV[2], member.createdAt))
return 'changed'
`);

/** KEYS: members, the email's memberships. ARGV: email, workspace id. Returns removeMember's outcome. */
const REMOVE_MEMBER = new LuaScript(`${MEMBERSHIP_LUA}
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return 'not_found' end
if cjson.decode(record).role == 'owner' and owner_count(KEYS[1]) == 1 then return 'last_owner' end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 'changed'
`);

/** KEYS: session, person's sessions. ARGV: token hash, created ms, end ms, field/value pairs. */
const CREATE_SESSION = new LuaScript(`${EXTEND_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
extend(KEYS[2], ARGV[3])
return 1
`);

/**
 * Moves lastSeenAt and idleExpiresAt forward (touches from several nodes may land in any order), the idle end
 * never past the absolute one, and the key's expiry with it. KEYS: session. ARGV: last seen ms, idle end ms, person's sessions key prefix.
 */
const TOUCH_SESSION = new LuaScript(`${EXTEND_LUA}
local session = redis.call('HMGET', KEYS[1], 'personId', 'expiresAt', 'lastSeenAt', 'idleExpiresAt')
if not session[1] then return 0 end
local seen = math.max(tonumber(ARGV[1]), tonumber(session[3]))
local idle = math.max(math.min(tonumber(ARGV[2]), tonumber(session[2])), tonumber(session[4]))
redis.call('HSET', KEYS[1], 'lastSeenAt', string.format('%.0f', seen), 'idleExpiresAt', string.format('%.0f', idle))
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', idle))
extend(ARGV[3] .. session[1], idle)
return 1
`);

/** The person's live sessions, as HGETALL replies. KEYS: person's sessions. ARGV: session key prefix. */
const LIST_SESSIONS = new LuaScript(`${LIVE_SESSIONS_LUA}
local replies = {}
for _, session in ipairs(live_sessions(KEYS[1], ARGV[1])) do table.insert(replies, session.flat) end
return replies
`);

/**
 * Ends the person's live sessions that match; returns how many. KEYS: person's sessions.
 * ARGV: session key prefix, only this id ('' = any), except this id ('' = none), only this workspace ('' = any).
 */
const DELETE_SESSIONS = new LuaScript(`${LIVE_SESSIONS_LUA}
local ended = 0
for _, session in ipairs(live_sessions(KEYS[1], ARGV[1])) do
  local fields = session.fields
  if (ARGV[2] == '' or fields.id == ARGV[2]) and fields.id ~= ARGV[3] and (ARGV[4] == '' or fields.workspaceId == ARGV[4]) then
    redis.call('DEL', ARGV[1] .. session.token)
    redis.call('ZREM', KEYS[1], session.token)
    ended = ended + 1
  end
end
return ended
`);

/**
 * Stores an invitation with createInvitation's checks; 'conflict' for a taken id or token hash.
 * KEYS: members, invitation, token index, workspace invitations, workspace pending invitations.
 * ARGV: email, id, created ms, expires ms, member limit ('' = none), invitation key prefix, field/value pairs.
 */
const CREATE_INVITATION = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'already_member' end
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then return 'conflict' end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', ARGV[3])
local replaced, others = {}, 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  if redis.call('HGET', ARGV[6] .. id, 'email') == ARGV[1] then table.insert(replaced, id) else others = others + 1 end
end
local limit = tonumber(ARGV[5])
if limit and redis.call('HLEN', KEYS[1]) + others + 1 > limit then return 'limit_reached' end
for _, id in ipairs(replaced) do
  redis.call('HSET', ARGV[6] .. id, 'revokedAt', ARGV[3])
  redis.call('ZREM', KEYS[5], id)
end
redis.call('HSET', KEYS[2], unpack(ARGV, 7))
redis.call('SET', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[5], ARGV[4], ARGV[2])
return 'created'
`);

/** Records of a list scored at or above a minimum, as HGETALL replies. KEYS: list. ARGV: record key prefix, minimum score. */
const LIST_RECORDS_SINCE = new LuaScript(`
local records = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf')) do
  local record = redis.call('HGETALL', ARGV[1] .. id)
  if #record > 0 then table.insert(records, record) end
end
return records
`);

/** Pending (not accepted, not revoked, unexpired at `at`) in the workspace; shared by revoke and accept. */
const PENDING_LUA = `
local function pending(invitation, at)
  return invitation.id ~= nil and invitation.acceptedAt == nil and invitation.revokedAt == nil
    and tonumber(invitation.expiresAt) > tonumber(at)
end
local function record(key)
  local flat = redis.call('HGETALL', key)
  local fields = {}
  for i = 1, #flat, 2 do fields[flat[i]] = flat[i + 1] end
  return fields, flat
end
`;

/** KEYS: invitation, workspace pending invitations. ARGV: workspace id, at ms. 1 when revoked. */
const REVOKE_INVITATION = new LuaScript(`${PENDING_LUA}
local invitation = record(KEYS[1])
if invitation.workspaceId ~= ARGV[1] or not pending(invitation, ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'revokedAt', ARGV[2])
redis.call('ZREM', KEYS[2], invitation.id)
return 1
`);

/**
 * acceptInvitation in one step. An email that is a member already uses the invitation up too (it is done with);
 * at the limit the invitation stays pending, to be accepted once a seat is free. With a new person, it is created
 * too unless the email has one ('email_taken', nothing written). Returns {outcome, invitation}.
 * KEYS: token index. ARGV: at ms, member limit ('' = none), key prefix, new person's id ('' = none), its field/value pairs.
 */
const ACCEPT_INVITATION = new LuaScript(`${MEMBERSHIP_LUA}${PENDING_LUA}
local id = redis.call('GET', KEYS[1])
if not id then return { 'invalid' } end
local key = ARGV[3] .. 'invitation:' .. id
local invitation = record(key)
if not pending(invitation, ARGV[1]) then return { 'invalid' } end
local members = ARGV[3] .. 'members:' .. invitation.workspaceId
local outcome = 'accepted'
if redis.call('HEXISTS', members, invitation.email) == 1 then
  outcome = 'already_member'
else
  local limit = tonumber(ARGV[2])
  if limit and redis.call('HLEN', members) >= limit then
    local _, flat = record(key)
    return { 'limit_reached', flat }
  end
end
if ARGV[4] ~= '' then
  local email_index = ARGV[3] .. 'person-email:' .. invitation.email
  local person = ARGV[3] .. 'person:' .. ARGV[4]
  if redis.call('EXISTS', email_index) == 1 or redis.call('EXISTS', person) == 1 then return { 'email_taken' } end
  redis.call('HSET', person, unpack(ARGV, 5))
  redis.call('SET', email_index, ARGV[4])
end
if outcome == 'accepted' then
  redis.call('HSET', members, invitation.email, member_record(invitation.role, ARGV[1]))
  redis.call('ZADD', ARGV[3] .. 'memberships:' .. invitation.email, ARGV[1], invitation.workspaceId)
end
redis.call('HSET', key, 'acceptedAt', ARGV[1])
redis.call('ZREM', ARGV[3] .. 'pending-invitations:' .. invitation.workspaceId, id)
local _, flat = record(key)
return { outcome, flat }
`);

/**
 * Stores a link and makes it the email's newest, deleting the previous newest if unused (each older one was revoked
 * the same way when its successor came). KEYS: link, email's newest link's token hash. ARGV: expires ms, link key
 * prefix, token hash, field/value pairs. 0 when the token hash is taken.
 */
const CREATE_PASSWORD_LINK = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local older = redis.call('GET', KEYS[2])
if older then
  local link = ARGV[2] .. older
  if not redis.call('HGET', link, 'usedAt') then redis.call('DEL', link) end
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[2], ARGV[1])
return 1
`);

/** KEYS: link. ARGV: at ms. The used link's HGETALL reply, or nil. */
const USE_PASSWORD_LINK = new LuaScript(`
local link = redis.call('HMGET', KEYS[1], 'tokenHash', 'expiresAt', 'usedAt')
if not link[1] or link[3] or tonumber(link[2]) <= tonumber(ARGV[1]) then return false end
redis.call('HSET', KEYS[1], 'usedAt', ARGV[1])
return redis.call('HGETALL', KEYS[1])
`);

/** KEYS: workspace audit log. ARGV: member, how many to keep. */
const APPEND_AUDIT = new LuaScript(`
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[2]) - 1)
return 1
`);

export class RedisAccountStore implements AccountStore {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  createPerson(person: Person): Promise<'created' | 'email_taken'> {
    return guardedRedis(async () => {
      const outcome = await CREATE_PERSON.run(this.redis, [this.key('person', person.id), this.key('person-email', person.email)], [person.id, ...pairs(personFields(person))]);
      if (outcome === 'conflict') throw new AppError('already_exists', `person ${person.id} already exists`);
      return outcome as 'created' | 'email_taken';
    });
  }

  getPerson(id: string): Promise<Person | null> {
    return guardedRedis(async () => toPerson(await this.redis.hgetall(this.key('person', id))));
  }

  findPersonByEmail(email: string): Promise<Person | null> {
    return guardedRedis(async () => toPerson(await this.getIndexed(this.key('person-email', email), this.key('person', ''))));
  }

  setPersonPassword(id: string, passwordHash: string, at: Date, proved: boolean): Promise<boolean> {
    return guardedRedis(async () => {
      const fields = ['passwordHash', passwordHash, 'passwordChangedAt', at.getTime(), ...(proved ? ['provedAt', at.getTime()] : [])];
      return (await UPDATE_EXISTING.run(this.redis, [this.key('person', id)], fields)) === 1;
    });
  }

  getMember(workspaceId: string, email: string): Promise<Member | null> {
    return guardedRedis(async () => {
      const record = await this.redis.hget(this.key('members', workspaceId), email);
      return record === null ? null : toMember(workspaceId, email, record);
    });
  }

  listMembers(workspaceId: string): Promise<Member[]> {
    return guardedRedis(async () => {
      const records = await this.redis.hgetall(this.key('members', workspaceId));
      return Object.entries(records).map(([email, record]) => toMember(workspaceId, email, record)).sort(oldestFirst((member) => member.email));
    });
  }

  listMembershipsOf(email: string): Promise<Member[]> {
    return guardedRedis(async () => {
      const found = (await LIST_MEMBERSHIPS.run(this.redis, [this.key('memberships', email)], [this.key('members', ''), email])) as [string, string][];
      return found.map(([workspaceId, record]) => toMember(workspaceId, email, record)).sort(oldestFirst((member) => member.workspaceId));
    });
  }

  setMemberRole(workspaceId: string, email: string, role: MemberRole): Promise<MembershipChangeOutcome> {
    return guardedRedis(async () => (await SET_MEMBER_ROLE.run(this.redis, [this.key('members', workspaceId)], [email, role])) as MembershipChangeOutcome);
  }

  removeMember(workspaceId: string, email: string): Promise<MembershipChangeOutcome> {
    return guardedRedis(async () => {
      const keys = [this.key('members', workspaceId), this.key('memberships', email)];
      return (await REMOVE_MEMBER.run(this.redis, keys, [email, workspaceId])) as MembershipChangeOutcome;
    });
  }

  createSession(session: SessionRecord): Promise<void> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        id: session.id, tokenHash: session.tokenHash, personId: session.personId, workspaceId: session.workspaceId,
        csrfToken: session.csrfToken, createdAt: session.createdAt.getTime(), lastSeenAt: session.lastSeenAt.getTime(),
        expiresAt: session.expiresAt.getTime(), idleExpiresAt: session.idleExpiresAt.getTime(),
      };
      if (session.userAgent !== null) fields.userAgent = session.userAgent;
      if (session.ip !== null) fields.ip = session.ip;
      const end = Math.min(session.expiresAt.getTime(), session.idleExpiresAt.getTime());
      const keys = [this.key('session', session.tokenHash), this.key('person-sessions', session.personId)];
      const created = await CREATE_SESSION.run(this.redis, keys, [session.tokenHash, session.createdAt.getTime(), end, ...pairs(fields)]);
      if (created !== 1) throw new AppError('already_exists', 'a session with that token already exists');
    });
  }

  findSession(tokenHash: string): Promise<SessionRecord | null> {
    return guardedRedis(async () => toSession(await this.redis.hgetall(this.key('session', tokenHash))));
  }

  touchSession(tokenHash: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void> {
    return guardedRedis(async () => {
      await TOUCH_SESSION.run(this.redis, [this.key('session', tokenHash)], [lastSeenAt.getTime(), idleExpiresAt.getTime(), this.key('person-sessions', '')]);
    });
  }

  setSessionWorkspace(tokenHash: string, workspaceId: string): Promise<boolean> {
    return guardedRedis(async () => (await UPDATE_EXISTING.run(this.redis, [this.key('session', tokenHash)], ['workspaceId', workspaceId])) === 1);
  }

  listSessions(personId: string): Promise<SessionRecord[]> {
    return guardedRedis(async () => {
      const replies = (await LIST_SESSIONS.run(this.redis, [this.key('person-sessions', personId)], [this.key('session', '')])) as string[][];
      return replies.map((flat) => toSession(fieldsOf(flat))!).sort(newestFirst);
    });
  }

  deleteSession(personId: string, id: string): Promise<boolean> {
    return guardedRedis(async () =>
      (await DELETE_SESSIONS.run(this.redis, [this.key('person-sessions', personId)], [this.key('session', ''), id, '', ''])) === 1);
  }

  deleteSessions(personId: string, options: { exceptId?: string; workspaceId?: string } = {}): Promise<number> {
    return guardedRedis(async () => {
      const args = [this.key('session', ''), '', options.exceptId ?? '', options.workspaceId ?? ''];
      return (await DELETE_SESSIONS.run(this.redis, [this.key('person-sessions', personId)], args)) as number;
    });
  }

  createInvitation(invitation: Invitation, memberLimit: number | null): Promise<CreateInvitationOutcome> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        id: invitation.id, workspaceId: invitation.workspaceId, email: invitation.email, role: invitation.role, tokenHash: invitation.tokenHash,
        invitedBy: invitation.invitedBy, createdAt: invitation.createdAt.getTime(), expiresAt: invitation.expiresAt.getTime(),
      };
      if (invitation.acceptedAt !== null) fields.acceptedAt = invitation.acceptedAt.getTime();
      if (invitation.revokedAt !== null) fields.revokedAt = invitation.revokedAt.getTime();
      const keys = [
        this.key('members', invitation.workspaceId), this.key('invitation', invitation.id), this.key('invitation-token', invitation.tokenHash),
        this.key('invitations', invitation.workspaceId), this.key('pending-invitations', invitation.workspaceId),
      ];
      const args = [
        invitation.email, invitation.id, invitation.createdAt.getTime(), invitation.expiresAt.getTime(), memberLimit ?? '', this.key('invitation', ''),
        ...pairs(fields),
      ];
      const outcome = await CREATE_INVITATION.run(this.redis, keys, args);
      if (outcome === 'conflict') throw new AppError('already_exists', `invitation ${invitation.id} or its token already exists`);
      return outcome as CreateInvitationOutcome;
    });
  }

  listInvitations(workspaceId: string, since: Date): Promise<Invitation[]> {
    return guardedRedis(async () => {
      const replies = (await LIST_RECORDS_SINCE.run(this.redis, [this.key('invitations', workspaceId)], [this.key('invitation', ''), since.getTime()])) as string[][];
      return replies.map((flat) => toInvitation(fieldsOf(flat))!).sort(newestFirst);
    });
  }

  findInvitationByTokenHash(tokenHash: string): Promise<Invitation | null> {
    return guardedRedis(async () => toInvitation(await this.getIndexed(this.key('invitation-token', tokenHash), this.key('invitation', ''))));
  }

  revokeInvitation(workspaceId: string, id: string, at: Date): Promise<boolean> {
    return guardedRedis(async () => {
      const keys = [this.key('invitation', id), this.key('pending-invitations', workspaceId)];
      return (await REVOKE_INVITATION.run(this.redis, keys, [workspaceId, at.getTime()])) === 1;
    });
  }

  acceptInvitation(tokenHash: string, at: Date, memberLimit: number | null, newPerson: Person | null): Promise<AcceptInvitationOutcome> {
    return guardedRedis(async () => {
      const person = newPerson === null ? [''] : [newPerson.id, ...pairs(personFields(newPerson))];
      const [outcome, flat] = (await ACCEPT_INVITATION.run(this.redis, [this.key('invitation-token', tokenHash)], [at.getTime(), memberLimit ?? '', this.prefix, ...person])) as
        [AcceptInvitationOutcome['outcome'], string[] | undefined];
      if (outcome === 'invalid' || outcome === 'email_taken') return { outcome };
      return { outcome, invitation: toInvitation(fieldsOf(flat!))! };
    });
  }

  createPasswordLink(link: PasswordLink): Promise<void> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        tokenHash: link.tokenHash, email: link.email, createdAt: link.createdAt.getTime(), expiresAt: link.expiresAt.getTime(),
      };
      if (link.usedAt !== null) fields.usedAt = link.usedAt.getTime();
      const created = await CREATE_PASSWORD_LINK.run(
        this.redis,
        [this.key('password-link', link.tokenHash), this.key('password-link-of', link.email)],
        [link.expiresAt.getTime(), this.key('password-link', ''), link.tokenHash, ...pairs(fields)],
      );
      if (created !== 1) throw new AppError('already_exists', 'a password link with that token already exists');
    });
  }

  findPasswordLink(tokenHash: string): Promise<PasswordLink | null> {
    return guardedRedis(async () => toPasswordLink(await this.redis.hgetall(this.key('password-link', tokenHash))));
  }

  usePasswordLink(tokenHash: string, at: Date): Promise<PasswordLink | null> {
    return guardedRedis(async () => {
      const flat = await USE_PASSWORD_LINK.run(this.redis, [this.key('password-link', tokenHash)], [at.getTime()]);
      return flat === null ? null : toPasswordLink(fieldsOf(flat as string[]));
    });
  }

  appendAudit(entry: AuditEntry): Promise<void> {
    return guardedRedis(async () => {
      const body = JSON.stringify({ actor: entry.actor, action: entry.action, target: entry.target, details: entry.details });
      await APPEND_AUDIT.run(this.redis, [this.key('audit', entry.workspaceId)], [`${auditPosition(entry)}${body}`, AUDIT_KEPT]);
    });
  }

  listAudit(workspaceId: string, limit: number, after: AuditPosition | null): Promise<AuditEntry[]> {
    return guardedRedis(async () => {
      // Members sort by their text; every member of an entry after `after` sorts below its position.
      const below = after === null ? '+' : `(${auditPosition(after)}`;
      const members = await this.redis.zrevrangebylex(this.key('audit', workspaceId), below, '-', 'LIMIT', 0, limit);
      return members.map((member) => toAuditEntry(workspaceId, member));
    });
  }

  /** `key('session', hash)` is `<prefix>session:<hash>`; `key('session', '')` is the prefix scripts append to. */
  private key(kind: string, id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  private async getIndexed(index: string, recordPrefix: string): Promise<Fields> {
    const flat = await GET_INDEXED.run(this.redis, [index], [recordPrefix]);
    return flat === null ? {} : fieldsOf(flat as string[]);
  }
}

/*
 * An audit member is `<at, 15 digits>\0<id>\0<JSON of the rest>`: byte order of members is then (at, id) order,
 * as SQLite's BINARY collation orders the embedded log. The NUL ends the id, so an id sorts before any longer id
 * it begins, and a position `<at>\0<id>\0` sorts just below every member of that entry.
 */
const AUDIT_SEPARATOR = '\u0000';

function auditPosition(position: AuditPosition): string {
  return `${String(position.at.getTime()).padStart(15, '0')}${AUDIT_SEPARATOR}${position.id}${AUDIT_SEPARATOR}`;
}

function toAuditEntry(workspaceId: string, member: string): AuditEntry {
  const [at, id, body] = member.split(AUDIT_SEPARATOR) as [string, string, string];
  const rest = JSON.parse(body) as { actor: string; action: AuditAction; target: string | null; details: Record<string, string | null> };
  return { id, workspaceId, at: new Date(Number(at)), actor: rest.actor, action: rest.action, target: rest.target, details: rest.details };
}

const optionalDate = (ms: string | undefined): Date | null => (ms === undefined ? null : date(ms));

/** Oldest first by createdAt, ties broken by `tie`, as the embedded store orders them. */
const oldestFirst = <T extends { createdAt: Date }>(tie: (item: T) => string) => (a: T, b: T): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || compareText(tie(a), tie(b));

const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || compareText(b.id, a.id);

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A person's hash; a record without originKind is an operator's (older builds' invitation-made ones were upgraded). */
function personFields(person: Person): Record<string, string | number> {
  const fields: Record<string, string | number> = { id: person.id, email: person.email, createdAt: person.createdAt.getTime(), originKind: person.origin.kind };
  if (person.passwordHash !== null) fields.passwordHash = person.passwordHash;
  if (person.passwordChangedAt !== null) fields.passwordChangedAt = person.passwordChangedAt.getTime();
  if (person.origin.kind === 'invitation') {
    fields.originWorkspaceId = person.origin.workspaceId;
    fields.originInvitationId = person.origin.invitationId;
    fields.originInvitedBy = person.origin.invitedBy;
  }
  if (person.provedAt !== null) fields.provedAt = person.provedAt.getTime();
  return fields;
}

function toPerson(fields: Fields): Person | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    email: fields.email!,
    passwordHash: fields.passwordHash ?? null,
    createdAt: date(fields.createdAt!),
    passwordChangedAt: optionalDate(fields.passwordChangedAt),
    origin: fields.originKind === 'invitation'
      ? { kind: 'invitation', workspaceId: fields.originWorkspaceId!, invitationId: fields.originInvitationId!, invitedBy: fields.originInvitedBy! }
      : { kind: 'operator' },
    provedAt: optionalDate(fields.provedAt),
  };
}

function toSession(fields: Fields): SessionRecord | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    tokenHash: fields.tokenHash!,
    personId: fields.personId!,
    workspaceId: fields.workspaceId!,
    csrfToken: fields.csrfToken!,
    createdAt: date(fields.createdAt!),
    lastSeenAt: date(fields.lastSeenAt!),
    expiresAt: date(fields.expiresAt!),
    idleExpiresAt: date(fields.idleExpiresAt!),
    userAgent: fields.userAgent ?? null,
    ip: fields.ip ?? null,
  };
}

function toInvitation(fields: Fields): Invitation | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    workspaceId: fields.workspaceId!,
    email: fields.email!,
    role: fields.role as MemberRole,
    tokenHash: fields.tokenHash!,
    invitedBy: fields.invitedBy!,
    createdAt: date(fields.createdAt!),
    expiresAt: date(fields.expiresAt!),
    acceptedAt: optionalDate(fields.acceptedAt),
    revokedAt: optionalDate(fields.revokedAt),
  };
}

/** Links have no id field; the token hash names them. */
function toPasswordLink(fields: Fields): PasswordLink | null {
  if (fields.tokenHash === undefined) return null;
  return {
    tokenHash: fields.tokenHash,
    email: fields.email!,
    createdAt: date(fields.createdAt!),
    expiresAt: date(fields.expiresAt!),
    usedAt: optionalDate(fields.usedAt),
  };
}
