// Memberships on Redis, shared by the metadata store (addMember, countMembers) and the account store.
import type { Member, MemberRole } from '../../domain/types.js';

/*
 * `members:<workspace id>` is a hash: email -> JSON {"role","createdAt"} (epoch ms). `memberships:<email>` is a
 * sorted set of the email's workspace ids scored by the membership's creation time, so a person's workspaces are
 * found without visiting every workspace; every script that adds or removes a member updates both in one step.
 */

/** The hash value of a membership; scripts that rewrite one produce the same shape (MEMBER_RECORD_LUA). */
export const memberRecord = (member: Pick<Member, 'role' | 'createdAt'>): string =>
  JSON.stringify({ role: member.role, createdAt: member.createdAt.getTime() });

export function toMember(workspaceId: string, email: string, record: string): Member {
  const { role, createdAt } = JSON.parse(record) as { role: MemberRole; createdAt: number };
  return { workspaceId, email, role, createdAt: new Date(createdAt) };
}

/**
 * Lua helpers for scripts about memberships: a record from a role and epoch ms (written with %.0f so Lua's
 * number formatting never turns a timestamp into exponent notation), and the number of owners in a members hash.
 */
export const MEMBERSHIP_LUA = `
local function member_record(role, created_ms)
  return string.format('{"role":%s,"createdAt":%.0f}', cjson.encode(role), tonumber(created_ms))
end
local function owner_count(members)
  local owners = 0
  for _, record in ipairs(redis.call('HVALS', members)) do
    if cjson.decode(record).role == 'owner' then owners = owners + 1 end
  end
  return owners
end
`;
