// Admission for the HTTP port: connections past the overall or the per-address cap are answered 503
// too_many_connections and closed before a byte of theirs is read; the rest are handed to the HTTP server.
import net from 'node:net';
import type http from 'node:http';
import { AppError } from '../errors.js';
import { KeyedCounts } from '../domain/keyed-counts.js';

export interface HttpAdmissionLimits {
  /** Connections open at once. */
  max: number;
  /** Connections open at once from one socket address (a proxy's clients share the proxy's). */
  perAddress: number;
}

/**
 * A listener in front of `server`. Sockets arrive paused (pauseOnConnect): a refused one is answered and closed
 * without its request ever being parsed, so a flood costs a descriptor for a moment and no request work.
 */
export function admittingListener(server: http.Server, limits: HttpAdmissionLimits, refused: (reason: 'overall' | 'address') => void): net.Server {
  const byAddress = new KeyedCounts();
  let open = 0;
  return net.createServer({ pauseOnConnect: true }, (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (open >= limits.max || byAddress.of(address) >= limits.perAddress) {
      const overall = open >= limits.max;
      refused(overall ? 'overall' : 'address');
      refuse(socket, overall ? `Too many HTTP connections (${limits.max}) are open; try again later`
        : `Too many HTTP connections (${limits.perAddress}) are open from your address; close some or try again later`);
      return;
    }
    open++;
    byAddress.add(address);
    socket.once('close', () => {
      open--;
      byAddress.remove(address);
    });
    server.emit('connection', socket);
    socket.resume();
  });
}

/** The refusal in the API's JSON envelope; the socket is closed once it is written, whatever the client sent. */
function refuse(socket: net.Socket, message: string): void {
  const error = new AppError('too_many_connections', message);
  const body = JSON.stringify({ success: false, error: { code: error.code, message } });
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${error.httpStatus} Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Retry-After: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
