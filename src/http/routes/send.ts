// The send endpoint: compose and capture a message over HTTP.
import type { SendService } from '../../services/send-message.js';
import { handlers } from '../handler.js';

export function sendHandlers(sender: SendService) {
  return handlers({
    sendMessage: async ({ principal, params, body }) => ({
      status: 201,
      data: { id: await sender.send(principal.workspace, params.id, body) },
    }),
  });
}
