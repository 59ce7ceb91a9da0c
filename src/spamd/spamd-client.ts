// Asks SpamAssassin's spamd to score one message: a SPAMC/1.5 REPORT request over TCP or a unix socket, bounded in time.
import net from 'node:net';
import type { SpamdAddress } from '../config.js';
import { parseSpamdReply, type SpamVerdict } from './spamd-reply.js';

/** A spamd that does not accept the connection by then is as good as down, whatever the overall limit. */
const CONNECT_TIMEOUT_MS = 3000;
/** A report is a few KiB (a short content preview and one line per rule); more than this is not spamd talking. */
const MAX_REPLY_BYTES = 256 * 1024;

/** `failure` completes a sentence about spamd ("did not answer within 10000 ms"); it never names the address. */
export type SpamdOutcome = { verdict: SpamVerdict } | { failure: string };

export const describeSpamdAddress = (address: SpamdAddress): string =>
  'path' in address ? address.path : `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;

/**
 * Sends `message` to spamd and reads its report. Every way of not getting a report (no connection, no answer
 * within `timeoutMs` from the start, an error reply, a reply that is not a report) is a failure saying why.
 * Aborting `signal` (the client went away) ends the exchange at once.
 */
export function askSpamd(address: SpamdAddress, message: Buffer, options: { timeoutMs: number; signal?: AbortSignal }): Promise<SpamdOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (outcome: SpamdOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(connectDeadline);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ failure: 'was not waited for: the check was cancelled' });

    const socket = net.connect('path' in address ? { path: address.path } : { host: address.host, port: address.port });
    const deadline = setTimeout(() => finish({ failure: `did not answer within ${options.timeoutMs} ms` }), options.timeoutMs);
    const connectDeadline = setTimeout(
      () => finish({ failure: `did not accept a connection within ${Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs)} ms` }),
      Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs),
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);

    socket.once('connect', () => {
      clearTimeout(connectDeadline);
      socket.setNoDelay(true);
      // One request per connection: spamd reads Content-length bytes, answers and closes, which ends the reply. Our
      // side stays open until then, since a proxy on the way may take a half-close for the end of the exchange.
      socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${message.length}\r\n\r\n`);
      socket.write(message);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REPLY_BYTES) return finish({ failure: `answered more than ${MAX_REPLY_BYTES} bytes, which is no report` });
      chunks.push(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // spamd may answer an error and close before it has read the whole message; that answer says more.
      if (received > 0 && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) return;
      finish({ failure: `could not be reached (${error.code ?? error.message})` });
    });
    // spamd's end of the stream completes its reply, even while it has not read all of the message (an error reply).
    const complete = () => {
      if (settled) return;
      if (received === 0) return finish({ failure: 'closed the connection without an answer' });
      try {
        finish({ verdict: parseSpamdReply(Buffer.concat(chunks)) });
      } catch (error) {
        finish({ failure: `gave no report: ${error instanceof Error ? error.message : String(error)}` });
      }
    };
    socket.on('end', complete);
    socket.on('close', complete);
  });
}
