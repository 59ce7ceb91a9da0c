// Identifier generation: a type prefix plus a ULID, so ids sort by creation time within one process.
import { monotonicFactory } from 'ulidx';

const nextUlid = monotonicFactory();

export type IdPrefix = 'ws' | 'key' | 'inb' | 'msg' | 'rule' | 'whk' | 'psn' | 'ses' | 'inv' | 'aud';

export function newId(prefix: IdPrefix, at: number = Date.now()): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}
