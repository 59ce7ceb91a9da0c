// The send endpoint: compose and capture a message over HTTP.
import type { SendRequest, SendService } from '../../services/send-message.js';
import type { HandlerTable } from '../handler.js';

export function sendHandlers(sender: SendService): HandlerTable {
  return {
    sendMessage: async ({ principal, params, body }) => ({
      status: 201,
      data: { id: await sender.send(principal.workspace, params.id!, body as SendRequest) },
    }),
  };
}
