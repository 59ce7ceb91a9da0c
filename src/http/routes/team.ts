// The team: members, their roles, invitations and accepting them.
import type { InvitationService } from '../../services/accounts/invitations.js';
import type { MemberService } from '../../services/accounts/members.js';
import { handlers, publicHandlers } from '../handler.js';
import { acceptedInvitationJson, invitationJson, invitationPreviewJson, memberJson } from '../account-presenters.js';

export function teamHandlers(members: MemberService, invitations: InvitationService) {
  return handlers({
    listMembers: async ({ principal }) => ({ data: (await members.list(principal.workspace.id)).map(memberJson) }),
    changeMemberRole: async ({ principal, params, body }) => ({ data: memberJson(await members.changeRole(principal, params.email, body.role)) }),
    removeMember: async ({ principal, params }) => ({ data: { removed: await members.remove(principal, params.email) } }),
    listInvitations: async ({ principal }) => ({ data: (await invitations.list(principal.workspace.id)).map(invitationJson) }),
    createInvitation: async ({ principal, body, baseUrl }) => {
      const { invitation, url } = await invitations.create(principal, body.email, body.role, baseUrl);
      return { status: 201, data: { ...invitationJson(invitation), status: 'pending' as const, url } };
    },
    revokeInvitation: async ({ principal, params }) => {
      await invitations.revoke(principal, params.id);
      return { data: { revoked: params.id } };
    },
  });
}

export function teamPublicHandlers(invitations: InvitationService) {
  return publicHandlers({
    lookUpInvitation: async ({ body, client }) => ({ data: invitationPreviewJson(await invitations.lookUp(body.token, client)) }),
    acceptInvitation: async ({ body, client }) => ({ data: acceptedInvitationJson(await invitations.accept(body.token, body.password, client)) }),
  });
}
