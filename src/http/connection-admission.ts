// Admission for the HTTP port: connections past the caps (connection-caps.ts) are answered 503 too_many_connections
// and closed before a byte of theirs is read; the rest are handed to the HTTP server. A connection counts as
// unauthenticated until it carries an authenticated request, and while no request of it is being answered it is idle:
// near the cap the oldest idle unauthenticated one is closed to admit a newcomer.
import net from 'node:net';
import type http from 'node:http';
import { AppError } from '../errors.js';
import { addressKey } from '../domain/address-key.js';
import { ConnectionCaps, type ConnectionCap, type ConnectionLimits, type ConnectionPlace } from '../domain/connection-caps.js';

/** What admission reports as it goes (the metrics, in the server). */
export interface AdmissionObserver {
  refused(cap: ConnectionCap): void;
  evicted(): void;
}

export class HttpConnectionAdmission {
  private readonly caps: ConnectionCaps;
  private readonly places = new WeakMap<net.Socket, ConnectionPlace>();
  /** The refusal for each cap, written whole once: a flood of refusals builds nothing per socket. */
  private readonly refusals: Record<ConnectionCap, string>;

  constructor(limits: ConnectionLimits, private readonly ipv6PrefixBits: number, private readonly observer: AdmissionObserver) {
    this.caps = new ConnectionCaps(limits);
    this.refusals = {
      overall: refusalResponse(`Too many HTTP connections (${limits.max}) are open; try again later`),
      unauthenticated: refusalResponse(`Too many HTTP connections (${limits.unauthenticatedMax}) that have not carried an authenticated request are open; try again later`),
      address: refusalResponse(`Too many HTTP connections (${limits.perAddress}) are open from your address; close some or try again later`),
      address_unauthenticated: refusalResponse(`Too many HTTP connections (${limits.unauthenticatedPerAddress}) that have not carried an authenticated request are open from your address; `
        + 'send your requests with credentials on the ones open, or close some'),
    };
  }

  /**
   * A listener in front of `server`. Sockets arrive paused (pauseOnConnect): a refused one is answered and closed
   * without its request ever being parsed, so a flood costs a descriptor for a moment and no request work.
   */
  listener(server: http.Server): net.Server {
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      const place = this.places.get(request.socket);
      if (!place) return;
      place.busy();
      response.once('close', () => place.idle());
    });
    // An upgraded connection (a WebSocket) is answering its one request for as long as it is open.
    server.on('upgrade', (request: http.IncomingMessage) => {
      const place = this.places.get(request.socket);
      if (!place) return;
      place.busy();
      request.socket.once('close', () => place.idle());
    });
    return net.createServer({ pauseOnConnect: true }, (socket) => {
      // An evicted connection is idle: no request of it is being answered, so closing it loses nothing.
      const claim = this.caps.claim(addressKey(socket.remoteAddress ?? 'unknown', this.ipv6PrefixBits), () => {
        this.observer.evicted();
        socket.destroy();
      });
      if (typeof claim === 'string') {
        this.observer.refused(claim);
        socket.on('error', () => socket.destroy());
        socket.end(this.refusals[claim], () => socket.destroy());
        return;
      }
      this.places.set(socket, claim);
      socket.once('close', () => claim.release());
      server.emit('connection', socket);
      socket.resume();
    });
  }

  /** A request on `socket` authenticated: the connection is kept among the authenticated ones until it closes. */
  authenticated(socket: net.Socket): void {
    this.places.get(socket)?.authenticated();
  }
}

/** The refusal in the API's JSON envelope. */
function refusalResponse(message: string): string {
  const error = new AppError('too_many_connections', message);
  const body = JSON.stringify({ success: false, error: { code: error.code, message } });
  return `HTTP/1.1 ${error.httpStatus} Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `Retry-After: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`;
}
