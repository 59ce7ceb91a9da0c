// Upgrades data kept by older builds in place: indexes this build reads that earlier builds did not write.
import type { Redis } from 'ioredis';
import { guardedRedis, LuaScript } from './redis-connection.js';
import { splitOldWebhookSchedule } from './redis-webhook-store.js';

/**
 * Lists a workspace's members under their emails' memberships, in one step with reading the hash, so a member
 * removed meanwhile by another node is not listed again. KEYS: members. ARGV: workspace id, memberships key prefix.
 */
const INDEX_MEMBERSHIPS = new LuaScript(`
local members = redis.call('HGETALL', KEYS[1])
for i = 1, #members, 2 do
  redis.call('ZADD', ARGV[2] .. members[i], cjson.decode(members[i + 1]).createdAt, ARGV[1])
end
return #members / 2
`);

/** Lists API keys under their workspace's key list. KEYS: key records. ARGV: key list prefix. */
const INDEX_API_KEYS = new LuaScript(`
for _, key in ipairs(KEYS) do
  local fields = redis.call('HMGET', key, 'id', 'workspaceId', 'createdAt')
  if fields[1] then redis.call('ZADD', ARGV[1] .. fields[2], fields[3], fields[1]) end
end
return #KEYS
`);

/**
 * Marks the people a workspace's accepted invitations made (PersonOrigin): older builds made such an account, or set
 * its password, at the very instant the invitation was accepted, and kept no origin. Records with none are read as
 * an operator's. KEYS: the workspace's invitations. ARGV: key prefix.
 */
const MARK_INVITED_PEOPLE = new LuaScript(`
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local invitation = redis.call('HMGET', ARGV[1] .. 'invitation:' .. id, 'email', 'acceptedAt', 'workspaceId', 'invitedBy')
  local person_id = invitation[2] and redis.call('GET', ARGV[1] .. 'person-email:' .. invitation[1])
  if person_id then
    local key = ARGV[1] .. 'person:' .. person_id
    local person = redis.call('HMGET', key, 'originKind', 'createdAt', 'passwordChangedAt')
    if not person[1] and (person[2] == invitation[2] or person[3] == invitation[2]) then
      redis.call('HSET', key, 'originKind', 'invitation', 'originWorkspaceId', invitation[3], 'originInvitationId', id, 'originInvitedBy', invitation[4])
    end
  end
end
return 1
`);

/**
 * Each step is idempotent, so nodes starting together may both run it and one that died midway is simply run
 * again; the version is recorded only once a step has finished.
 */
const STEPS: ((redis: Redis, prefix: string) => Promise<void>)[] = [
  async (redis, prefix) => {
    for (const workspaceId of await redis.zrange(`${prefix}workspaces`, 0, -1)) {
      await INDEX_MEMBERSHIPS.run(redis, [`${prefix}members:${workspaceId}`], [workspaceId, `${prefix}memberships:`]);
    }
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}api-key:*`, 'COUNT', 1000);
      if (keys.length > 0) await INDEX_API_KEYS.run(redis, keys, [`${prefix}api-keys:`]);
      cursor = next;
      if (cursor === '0') return;
    }
  },
  // Webhook deliveries are scheduled per workspace, so claims take turns between workspaces.
  async (redis, prefix) => {
    await splitOldWebhookSchedule(redis, prefix);
  },
  // Accounts made through invitations say so, and which workspace's.
  async (redis, prefix) => {
    for (const workspaceId of await redis.zrange(`${prefix}workspaces`, 0, -1)) {
      await MARK_INVITED_PEOPLE.run(redis, [`${prefix}invitations:${workspaceId}`], [prefix]);
    }
  },
];

export function upgradeRedisData(redis: Redis, prefix: string): Promise<void> {
  return guardedRedis(async () => {
    const versionKey = `${prefix}data-version`;
    for (let version = Number(await redis.get(versionKey) ?? 0); version < STEPS.length; version++) {
      await STEPS[version]!(redis, prefix);
      await redis.set(versionKey, version + 1);
    }
  });
}
