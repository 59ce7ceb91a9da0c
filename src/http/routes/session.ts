// Signing in and out, the signed-in person, their password and sessions, and set-password links.
import type { PeopleService } from '../../services/accounts/people.js';
import type { SessionService } from '../../services/accounts/sessions.js';
import { handlers, publicHandlers } from '../handler.js';
import { meJson, passwordLinkJson, sessionJson } from '../account-presenters.js';

export function sessionHandlers(people: PeopleService, sessions: SessionService) {
  return handlers({
    signOut: async ({ principal }) => {
      await sessions.end(principal.person.id, principal.session.id);
      return { data: { signed_out: true as const }, sessionCookie: { clear: true } };
    },
    getMe: async ({ principal }) => ({ data: meJson(await people.describe(principal)) }),
    switchWorkspace: async ({ principal, body }) => {
      return { data: meJson(await people.describe(await sessions.switchWorkspace(principal, body.workspace_id))) };
    },
    changePassword: async ({ principal, body, client }) => ({
      data: { ended_sessions: await people.changePassword(principal, body.current_password, body.new_password, client) },
    }),
    listSessions: async ({ principal }) => ({
      data: (await sessions.list(principal.person.id)).map((session) => sessionJson(session, principal.session.id)),
    }),
    endSession: async ({ principal, params }) => {
      await sessions.end(principal.person.id, params.id);
      return { data: { ended: params.id }, ...(params.id === principal.session.id ? { sessionCookie: { clear: true } as const } : {}) };
    },
  });
}

export function sessionPublicHandlers(people: PeopleService) {
  return publicHandlers({
    signIn: async ({ body, client }) => {
      const { token, me, deviceCookie } = await people.signIn(body.email, body.password, body.workspace_id, client);
      return {
        status: 201,
        data: meJson(me),
        sessionCookie: { set: token, expiresAt: me.session.expiresAt },
        deviceCookie: { set: deviceCookie.value, expiresAt: deviceCookie.expiresAt },
      };
    },
    lookUpPasswordLink: async ({ body, client }) => ({ data: passwordLinkJson(await people.lookUpPasswordLink(body.token, client)) }),
    setPasswordFromLink: async ({ body, client }) => ({ data: { email: await people.setPasswordFromLink(body.token, body.password, client) } }),
  });
}
