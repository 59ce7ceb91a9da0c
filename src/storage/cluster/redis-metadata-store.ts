// MetadataStore on Redis: workspaces, members, API keys, inboxes, tag colours, tag rules and secrets shared by every node.
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.js';
import type { Access, ApiKeyRecord, Inbox, Member, TagRule, Workspace } from '../../domain/types.js';
import type { AddMemberOutcome, CreateInboxOutcome, MetadataStore } from '../ports.js';
import { inboxNameKey } from '../../domain/inbox-names.js';
import { INBOX_SETTINGS_SECTIONS, inboxSettingsFrom, type InboxSettings } from '../../domain/inbox-settings.js';
import { guardedRedis, LuaScript } from './redis-connection.js';
import { date, exists, fieldsOf, GET_INDEXED, LIST_RECORDS, pairs, type Fields } from './redis-records.js';
import { memberRecord } from './redis-memberships.js';
import { API_KEY_PREFIX } from '../../domain/secrets.js';

/*
 * Records are hashes (dates as epoch milliseconds), so a script can change one field without decoding JSON.
 * Lists are sorted sets scored by creation time: equal scores order by member, which gives the embedded
 * store's (created_at, id) order. Every write that checks something before writing is one Lua script, which
 * Redis runs without interleaving any other command, so checks hold for concurrent requests from all nodes.
 * Scripts build some key names from a prefix passed in ARGV; that is sound on the single Redis the profile uses.
 */

/** Inserts a record and adds it to its list unless the id is taken. KEYS: record, list. ARGV: id, score, field/value pairs. */
const INSERT_LISTED = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
`);

/**
 * Sets fields of a record only if it exists and belongs to the given owner; returns the updated record (or nil).
 * KEYS: record. ARGV: owner field, owner value, field/value pairs.
 */
const UPDATE_OWNED = new LuaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return false end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
return redis.call('HGETALL', KEYS[1])
`);

/**
 * Adds a member unless the email is a member already or the limit is met; returns addMember's outcome.
 * KEYS: members, the email's memberships (see redis-memberships.ts). ARGV: email, record, limit ('' = none), workspace id, created ms.
 */
const ADD_MEMBER = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'already_member' end
local limit = tonumber(ARGV[3])
if limit and redis.call('HLEN', KEYS[1]) >= limit then return 'limit_reached' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4])
return 'added'
`);

/** Stores a key unless its id or hash is taken. KEYS: key record, hash index, workspace key list. ARGV: id, score, field/value pairs. */
const CREATE_API_KEY = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
`);

/** Revokes a key that is not revoked yet, of the given workspace when one is given. KEYS: key record. ARGV: ms, workspace id ('' = any). */
const REVOKE_API_KEY = new LuaScript(`
local key = redis.call('HMGET', KEYS[1], 'id', 'workspaceId', 'revokedAt')
if not key[1] or key[3] or (ARGV[2] ~= '' and key[2] ~= ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'revokedAt', ARGV[1])
return 1
`);

/** Moves lastUsedAt on, never back (nodes' touches may land in either order). KEYS: key record. ARGV: ms. */
const TOUCH_API_KEY = new LuaScript(`
local key = redis.call('HMGET', KEYS[1], 'id', 'lastUsedAt')
if not key[1] then return 0 end
if not key[2] or tonumber(key[2]) < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return 1
`);

/**
 * Creates an inbox with the checks in the port's order: name taken (case-insensitively) in the workspace, then
 * the inbox limit; returns createInbox's outcome, or 'conflict' for a taken id or SMTP username.
 * KEYS: inbox, workspace inbox list, workspace name index, SMTP username index.
 * ARGV: id, name key, score, limit ('' = none), field/value pairs.
 */
const CREATE_INBOX = new LuaScript(`
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 'name_taken' end
local limit = tonumber(ARGV[4])
if limit and redis.call('ZCARD', KEYS[2]) >= limit then return 'limit_reached' end
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[4]) == 1 then return 'conflict' end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1])
redis.call('SET', KEYS[4], ARGV[1])
return 'created'
`);

/**
 * Deletes an inbox of the workspace with its index entries; 1 when it existed.
 * KEYS: inbox, workspace inbox list, workspace name index. ARGV: workspace id, inbox id, SMTP username index key prefix.
 */
const DELETE_INBOX = new LuaScript(`
local inbox = redis.call('HMGET', KEYS[1], 'workspaceId', 'nameKey', 'smtpUsername')
if inbox[1] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], ARGV[3] .. inbox[3])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], inbox[2])
return 1
`);

/** Moves a colour to a new name unless that name has one already. KEYS: colours. ARGV: from, to. */
const RENAME_TAG_COLOR = new LuaScript(`
local color = redis.call('HGET', KEYS[1], ARGV[1])
if color then
  redis.call('HSETNX', KEYS[1], ARGV[2], color)
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
`);

/**
 * Stores a rule unless the workspace has reached the limit or the id is taken, listing it for the workspace and,
 * when scoped, for its inbox; 1 when stored, 0 when the id is taken, -1 at the limit.
 * KEYS: rule, workspace rule list, [inbox rule list]. ARGV: id, score, limit ('' = none), field/value pairs.
 */
const CREATE_TAG_RULE = new LuaScript(`
local limit = tonumber(ARGV[3])
if limit and redis.call('ZCARD', KEYS[2]) >= limit then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
if KEYS[3] then redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1]) end
return 1
`);

/**
 * Replaces inbox, query and tags of a rule of the workspace, moving it between inbox rule lists.
 * KEYS: rule. ARGV: workspace id, rule id, inbox rule list key prefix, '1' if scoped, inbox id, query, tags.
 */
const REPLACE_TAG_RULE = new LuaScript(`
local rule = redis.call('HMGET', KEYS[1], 'workspaceId', 'inboxId', 'createdAt')
if rule[1] ~= ARGV[1] then return 0 end
if rule[2] then redis.call('ZREM', ARGV[3] .. rule[2], ARGV[2]) end
if ARGV[4] == '1' then
  redis.call('ZADD', ARGV[3] .. ARGV[5], rule[3], ARGV[2])
  redis.call('HSET', KEYS[1], 'inboxId', ARGV[5])
else
  redis.call('HDEL', KEYS[1], 'inboxId')
end
redis.call('HSET', KEYS[1], 'query', ARGV[6], 'tags', ARGV[7])
return 1
`);

/** Deletes a rule of the workspace from its record and lists. KEYS: rule, workspace rule list. ARGV: workspace id, rule id, inbox rule list key prefix. */
const DELETE_TAG_RULE = new LuaScript(`
local rule = redis.call('HMGET', KEYS[1], 'workspaceId', 'inboxId')
if rule[1] ~= ARGV[1] then return 0 end
if rule[2] then redis.call('ZREM', ARGV[3] .. rule[2], ARGV[2]) end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
`);

/**
 * Deletes the rules scoped to an inbox: their records, their places in the workspace's list, the inbox's list.
 * Returns how many. KEYS: inbox's rule list, workspace rule list. ARGV: rule key prefix.
 */
const DELETE_INBOX_TAG_RULES = new LuaScript(`
local rules = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, rule in ipairs(rules) do
  redis.call('DEL', ARGV[1] .. rule)
  redis.call('ZREM', KEYS[2], rule)
end
redis.call('DEL', KEYS[1])
return #rules
`);

/** The first value written wins on every node. KEYS: secret. ARGV: candidate value. */
const SECRET = new LuaScript(`
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`);


export class RedisMetadataStore implements MetadataStore {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  createWorkspace(workspace: Workspace): Promise<void> {
    return guardedRedis(async () => {
      const created = await INSERT_LISTED.run(this.redis, [this.key('workspace', workspace.id), this.key('workspaces')], [
        workspace.id, workspace.createdAt.getTime(),
        ...pairs({ id: workspace.id, name: workspace.name, plan: workspace.planName, createdAt: workspace.createdAt.getTime() }),
      ]);
      if (created !== 1) throw new AppError('already_exists', `workspace ${workspace.id} already exists`);
    });
  }

  getWorkspace(id: string): Promise<Workspace | null> {
    return guardedRedis(async () => toWorkspace(await this.redis.hgetall(this.key('workspace', id))));
  }

  listWorkspaces(): Promise<Workspace[]> {
    return guardedRedis(async () => (await this.listRecords(this.key('workspaces'), this.key('workspace', ''))).map((fields) => toWorkspace(fields)!));
  }

  setWorkspacePlan(id: string, planName: string): Promise<boolean> {
    return guardedRedis(async () => (await UPDATE_OWNED.run(this.redis, [this.key('workspace', id)], ['id', id, 'plan', planName])) !== null);
  }

  addMember(member: Member, memberLimit: number | null): Promise<AddMemberOutcome> {
    return guardedRedis(async () => {
      const keys = [this.key('members', member.workspaceId), this.key('memberships', member.email)];
      const args = [member.email, memberRecord(member), memberLimit ?? '', member.workspaceId, member.createdAt.getTime()];
      return (await ADD_MEMBER.run(this.redis, keys, args)) as AddMemberOutcome;
    });
  }

  countMembers(workspaceId: string): Promise<number> {
    return guardedRedis(() => this.redis.hlen(this.key('members', workspaceId)));
  }

  createApiKey(key: ApiKeyRecord): Promise<void> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        id: key.id, workspaceId: key.workspaceId, access: key.access, prefix: key.prefix, keyHash: key.keyHash, createdAt: key.createdAt.getTime(),
      };
      if (key.name !== null) fields.name = key.name;
      if (key.lastUsedAt !== null) fields.lastUsedAt = key.lastUsedAt.getTime();
      if (key.revokedAt !== null) fields.revokedAt = key.revokedAt.getTime();
      const keys = [this.key('api-key', key.id), this.key('api-key-hash', key.keyHash), this.key('api-keys', key.workspaceId)];
      const created = await CREATE_API_KEY.run(this.redis, keys, [key.id, key.createdAt.getTime(), ...pairs(fields)]);
      if (created !== 1) throw new AppError('already_exists', `API key ${key.id} or its hash already exists`);
    });
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return guardedRedis(async () => toApiKey(await this.getIndexed(this.key('api-key-hash', keyHash), this.key('api-key', ''))));
  }

  listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return guardedRedis(async () => (await this.listRecords(this.key('api-keys', workspaceId), this.key('api-key', '')))
      .map((fields) => toApiKey(fields)!)
      .filter((key) => key.revokedAt === null));
  }

  revokeApiKey(id: string, at: Date, workspaceId?: string): Promise<boolean> {
    return guardedRedis(async () => (await REVOKE_API_KEY.run(this.redis, [this.key('api-key', id)], [at.getTime(), workspaceId ?? ''])) === 1);
  }

  touchApiKey(id: string, at: Date): Promise<void> {
    return guardedRedis(async () => {
      await TOUCH_API_KEY.run(this.redis, [this.key('api-key', id)], [at.getTime()]);
    });
  }

  createInbox(inbox: Inbox, inboxLimit: number | null): Promise<CreateInboxOutcome> {
    return guardedRedis(async () => {
      const nameKey = inboxNameKey(inbox.name);
      const fields = {
        id: inbox.id, workspaceId: inbox.workspaceId, name: inbox.name, nameKey, smtpUsername: inbox.smtpUsername,
        smtpPasswordHash: inbox.smtpPasswordHash, createdAt: inbox.createdAt.getTime(), ...settingsFields(inbox.settings),
      };
      const keys = [
        this.key('inbox', inbox.id), this.key('inboxes', inbox.workspaceId), this.key('inbox-names', inbox.workspaceId), this.key('smtp-username', inbox.smtpUsername),
      ];
      const outcome = await CREATE_INBOX.run(this.redis, keys, [inbox.id, nameKey, inbox.createdAt.getTime(), inboxLimit ?? '', ...pairs(fields)]);
      if (outcome === 'conflict') throw new AppError('already_exists', `inbox ${inbox.id} or SMTP username ${inbox.smtpUsername} already exists`);
      return outcome as CreateInboxOutcome;
    });
  }

  getInbox(workspaceId: string, id: string): Promise<Inbox | null> {
    return guardedRedis(async () => {
      const inbox = toInbox(await this.redis.hgetall(this.key('inbox', id)));
      return inbox?.workspaceId === workspaceId ? inbox : null;
    });
  }

  findInboxBySmtpUsername(username: string): Promise<Inbox | null> {
    return guardedRedis(async () => toInbox(await this.getIndexed(this.key('smtp-username', username), this.key('inbox', ''))));
  }

  findInboxById(id: string): Promise<Inbox | null> {
    return guardedRedis(async () => toInbox(await this.redis.hgetall(this.key('inbox', id))));
  }

  listInboxes(workspaceId: string): Promise<Inbox[]> {
    return guardedRedis(async () => (await this.listRecords(this.key('inboxes', workspaceId), this.key('inbox', ''))).map((fields) => toInbox(fields)!));
  }

  countInboxes(workspaceId: string): Promise<number> {
    return guardedRedis(() => this.redis.zcard(this.key('inboxes', workspaceId)));
  }

  deleteInbox(workspaceId: string, id: string): Promise<boolean> {
    return guardedRedis(async () => {
      const keys = [this.key('inbox', id), this.key('inboxes', workspaceId), this.key('inbox-names', workspaceId)];
      return (await DELETE_INBOX.run(this.redis, keys, [workspaceId, id, this.key('smtp-username', '')])) === 1;
    });
  }

  setInboxPassword(workspaceId: string, id: string, passwordHash: string): Promise<Inbox | null> {
    return guardedRedis(async () => {
      const updated = await UPDATE_OWNED.run(this.redis, [this.key('inbox', id)], ['workspaceId', workspaceId, 'smtpPasswordHash', passwordHash]);
      return updated === null ? null : toInbox(fieldsOf(updated as string[]));
    });
  }

  setInboxSettings(workspaceId: string, id: string, sections: Partial<InboxSettings>): Promise<Inbox | null> {
    const fields = settingsFields(sections);
    if (Object.keys(fields).length === 0) return this.getInbox(workspaceId, id);
    return guardedRedis(async () => {
      const updated = await UPDATE_OWNED.run(this.redis, [this.key('inbox', id)], ['workspaceId', workspaceId, ...pairs(fields)]);
      return updated === null ? null : toInbox(fieldsOf(updated as string[]));
    });
  }

  listTagColors(workspaceId: string): Promise<Map<string, string>> {
    return guardedRedis(async () => new Map(Object.entries(await this.redis.hgetall(this.key('tag-colors', workspaceId)))));
  }

  setTagColor(workspaceId: string, tag: string, color: string | null): Promise<void> {
    return guardedRedis(async () => {
      if (color === null) await this.redis.hdel(this.key('tag-colors', workspaceId), tag);
      else await this.redis.hset(this.key('tag-colors', workspaceId), tag, color);
    });
  }

  renameTagColor(workspaceId: string, from: string, to: string): Promise<void> {
    if (from === to) return Promise.resolve();
    return guardedRedis(async () => {
      await RENAME_TAG_COLOR.run(this.redis, [this.key('tag-colors', workspaceId)], [from, to]);
    });
  }

  listTagRules(workspaceId: string, inboxId?: string): Promise<TagRule[]> {
    return guardedRedis(async () => {
      const list = inboxId === undefined ? this.key('tag-rules', workspaceId) : this.inboxRulesKey(workspaceId, inboxId);
      return (await this.listRecords(list, this.key('tag-rule', ''))).map((fields) => toTagRule(fields)!);
    });
  }

  getTagRule(workspaceId: string, id: string): Promise<TagRule | null> {
    return guardedRedis(async () => {
      const rule = toTagRule(await this.redis.hgetall(this.key('tag-rule', id)));
      return rule?.workspaceId === workspaceId ? rule : null;
    });
  }

  createTagRule(rule: TagRule, limit: number | null): Promise<'created' | 'limit_reached'> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        id: rule.id, workspaceId: rule.workspaceId, query: rule.query, tags: JSON.stringify(rule.tags), createdAt: rule.createdAt.getTime(),
      };
      const keys = [this.key('tag-rule', rule.id), this.key('tag-rules', rule.workspaceId)];
      if (rule.inboxId !== null) {
        fields.inboxId = rule.inboxId;
        keys.push(this.inboxRulesKey(rule.workspaceId, rule.inboxId));
      }
      const created = await CREATE_TAG_RULE.run(this.redis, keys, [rule.id, rule.createdAt.getTime(), limit ?? '', ...pairs(fields)]);
      if (created === -1) return 'limit_reached';
      if (created !== 1) throw new AppError('already_exists', `tag rule ${rule.id} already exists`);
      return 'created';
    });
  }

  replaceTagRule(rule: TagRule): Promise<boolean> {
    return guardedRedis(async () => {
      const scoped = rule.inboxId === null ? ['0', ''] : ['1', rule.inboxId];
      const args = [rule.workspaceId, rule.id, this.inboxRulesKey(rule.workspaceId, ''), ...scoped, rule.query, JSON.stringify(rule.tags)];
      return (await REPLACE_TAG_RULE.run(this.redis, [this.key('tag-rule', rule.id)], args)) === 1;
    });
  }

  deleteTagRule(workspaceId: string, id: string): Promise<boolean> {
    return guardedRedis(async () => {
      const keys = [this.key('tag-rule', id), this.key('tag-rules', workspaceId)];
      return (await DELETE_TAG_RULE.run(this.redis, keys, [workspaceId, id, this.inboxRulesKey(workspaceId, '')])) === 1;
    });
  }

  deleteTagRulesOfInbox(workspaceId: string, inboxId: string): Promise<number> {
    return guardedRedis(async () => {
      const keys = [this.inboxRulesKey(workspaceId, inboxId), this.key('tag-rules', workspaceId)];
      return (await DELETE_INBOX_TAG_RULES.run(this.redis, keys, [this.key('tag-rule', '')])) as number;
    });
  }

  secret(name: string, generate: () => string): Promise<string> {
    return guardedRedis(async () => (await SECRET.run(this.redis, [this.key('secret', name)], [generate()])) as string);
  }

  /** `key('inbox', id)` is `<prefix>inbox:<id>`; `key('inbox', '')` is the prefix scripts append ids to. */
  private key(kind: string, id?: string): string {
    return id === undefined ? `${this.prefix}${kind}` : `${this.prefix}${kind}:${id}`;
  }

  private inboxRulesKey(workspaceId: string, inboxId: string): string {
    return this.key('inbox-tag-rules', `${workspaceId}:${inboxId}`);
  }

  private async listRecords(list: string, recordPrefix: string): Promise<Fields[]> {
    return ((await LIST_RECORDS.run(this.redis, [list], [recordPrefix])) as string[][]).map(fieldsOf);
  }

  private async getIndexed(index: string, recordPrefix: string): Promise<Fields> {
    const flat = await GET_INDEXED.run(this.redis, [index], [recordPrefix]);
    return flat === null ? {} : fieldsOf(flat as string[]);
  }
}


function toWorkspace(fields: Fields): Workspace | null {
  if (!exists(fields)) return null;
  return { id: fields.id!, name: fields.name!, planName: fields.plan!, createdAt: date(fields.createdAt!) };
}

function toApiKey(fields: Fields): ApiKeyRecord | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    workspaceId: fields.workspaceId!,
    access: fields.access as Access,
    name: fields.name ?? null,
    // Keys stored before prefixes were kept have none; every key starts with this.
    prefix: fields.prefix ?? API_KEY_PREFIX,
    keyHash: fields.keyHash!,
    createdAt: date(fields.createdAt!),
    lastUsedAt: fields.lastUsedAt === undefined ? null : date(fields.lastUsedAt),
    revokedAt: fields.revokedAt === undefined ? null : date(fields.revokedAt),
  };
}

function toInbox(fields: Fields): Inbox | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    workspaceId: fields.workspaceId!,
    name: fields.name!,
    smtpUsername: fields.smtpUsername!,
    smtpPasswordHash: fields.smtpPasswordHash!,
    createdAt: date(fields.createdAt!),
    settings: inboxSettingsFrom(Object.fromEntries(INBOX_SETTINGS_SECTIONS.flatMap((section) => {
      const json = fields[`${SETTINGS_FIELD}${section}`];
      return json === undefined ? [] : [[section, JSON.parse(json) as unknown]];
    }))),
  };
}

/** Each settings section is a field of the inbox's hash, so writing one section is one HSET and leaves the others be. */
const SETTINGS_FIELD = 'settings.';

function settingsFields(sections: Partial<InboxSettings>): Record<string, string> {
  return Object.fromEntries(INBOX_SETTINGS_SECTIONS.flatMap((section) =>
    sections[section] === undefined ? [] : [[`${SETTINGS_FIELD}${section}`, JSON.stringify(sections[section])]]));
}

function toTagRule(fields: Fields): TagRule | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    workspaceId: fields.workspaceId!,
    inboxId: fields.inboxId ?? null,
    query: fields.query!,
    tags: JSON.parse(fields.tags!) as string[],
    createdAt: date(fields.createdAt!),
  };
}
