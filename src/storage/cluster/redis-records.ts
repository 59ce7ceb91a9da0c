// Records kept as Redis hashes (the metadata and webhook stores): field maps, list snapshots and conversions.
import { LuaScript } from './redis-connection.js';

/** A hash's fields; a missing hash reads as no fields at all. */
export type Fields = Record<string, string>;

/** Every record of a list in list order, as one consistent snapshot. KEYS: list. ARGV: record key prefix. */
export const LIST_RECORDS = new LuaScript(`
local records = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local record = redis.call('HGETALL', ARGV[1] .. id)
  if #record > 0 then table.insert(records, record) end
end
return records
`);

/** Reads the record an index entry points at, in one step so the two cannot disagree. KEYS: index. ARGV: record key prefix. */
export const GET_INDEXED = new LuaScript(`
local id = redis.call('GET', KEYS[1])
if not id then return false end
return redis.call('HGETALL', ARGV[1] .. id)
`);

/** Field/value pairs as HSET takes them. */
export const pairs = (fields: Record<string, string | number>): (string | number)[] => Object.entries(fields).flat();

/** HGETALL's flat reply as fields. */
export function fieldsOf(flat: string[]): Fields {
  const fields: Fields = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
  return fields;
}

/** Every record has an id field, so its absence means the hash does not exist. */
export const exists = (fields: Fields): boolean => fields.id !== undefined;

/** Dates are stored as epoch milliseconds. */
export const date = (ms: string): Date => new Date(Number(ms));
