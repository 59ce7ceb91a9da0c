// The send endpoint: compose and capture a message over HTTP.
import { AppError } from '../../errors.js';
import type { SendService } from '../../services/capture/send.js';
import { handlers } from '../handler.js';

export function sendHandlers(sender: SendService) {
  return handlers({
    sendMessage: async ({ principal, params, body, message }) => {
      // The router composes every send body it validates; a missing message is a wiring fault, not the client's.
      if (message === null) throw new AppError('internal_error', 'the send body was not composed', { expose: false });
      return { status: 201, data: { id: await sender.send(principal.workspace, params.id, body, message) } };
    },
  });
}
