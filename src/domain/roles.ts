// Who may do what to whom in a workspace's team: the role order and the rules for changing and removing members.
import type { MemberRole } from './types.js';

const RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

export const ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

export const roleAtLeast = (role: MemberRole, least: MemberRole): boolean => RANK[role] >= RANK[least];

/*
 * Each rule answers null when allowed, or why not (the message of a 403 role_required). The last-owner rule is not
 * here: it needs the workspace's other members and is checked atomically by the store.
 */

/** Admins move people between member and admin; ownership (granting it, or touching an owner) is the owners'. */
export function roleChangeRefusal(actor: MemberRole, current: MemberRole, next: MemberRole): string | null {
  if (!roleAtLeast(actor, 'admin')) return 'changing roles needs the admin role';
  if ((current === 'owner' || next === 'owner') && actor !== 'owner') return 'only an owner may make someone an owner or change an owner\'s role';
  return null;
}

/** Anyone may leave; admins remove members and admins; only owners remove an owner. */
export function removalRefusal(actor: MemberRole, self: boolean, target: MemberRole): string | null {
  if (self) return null;
  if (!roleAtLeast(actor, 'admin')) return 'removing someone else needs the admin role';
  if (target === 'owner' && actor !== 'owner') return 'only an owner may remove an owner';
  return null;
}

/** Inviting needs an admin; inviting an owner needs an owner. */
export function invitationRefusal(actor: MemberRole, role: MemberRole): string | null {
  if (!roleAtLeast(actor, 'admin')) return 'inviting needs the admin role';
  if (role === 'owner' && actor !== 'owner') return 'only an owner may invite an owner';
  return null;
}
