// A fetch answered by this process's own HTTP app over an in-memory connection: the /mcp tools' API requests pass
// every check an API request meets (Host, key, rate, access, roles, shares, validation, body limits) in the one
// place those checks live, without a socket, a port, or a place under the listener's connection caps.
import http from 'node:http';
import { Duplex, Readable } from 'node:stream';
import { MAX_HEADER_BYTES } from './node-server.js';

/** The fetch the typed client takes: a standard Request in, a standard Response out. */
export type InProcessFetch = (request: Request) => Promise<Response>;

/** Statuses whose Response must have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * One end of an in-memory connection: what it writes, its peer reads, and a write waits until the peer has read what
 * came before (backpressure), so a large answer is held once, not twice.
 */
class MemorySocket extends Duplex {
  peer: MemorySocket | null = null;
  private resumeWriter: (() => void) | null = null;

  /** `remoteAddress`: the address the far end's requests are taken to come from (Koa's ctx.ip). */
  constructor(readonly remoteAddress: string | undefined) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const peer = this.peer!;
    if (peer.push(chunk)) done();
    else peer.resumeWriter = () => done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.peer!.push(null);
    done();
  }

  override _read(): void {
    const resume = this.resumeWriter;
    this.resumeWriter = null;
    resume?.();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    // A connection ends for both sides at once: a client that goes away stops the request it was waiting on.
    this.peer?.destroy();
    done(error);
  }

  // What Node's HTTP code may ask of a TCP socket; a connection in memory has no delay, keep-alive probe or idle timer.
  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  setTimeout(): this {
    return this;
  }
}

function connection(clientAddress: string | undefined): { clientEnd: MemorySocket; serverEnd: MemorySocket } {
  const clientEnd = new MemorySocket(undefined);
  const serverEnd = new MemorySocket(clientAddress);
  clientEnd.peer = serverEnd;
  serverEnd.peer = clientEnd;
  return { clientEnd, serverEnd };
}

function responseOf(incoming: http.IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  const status = incoming.statusCode ?? 500;
  if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
    incoming.resume();
    return new Response(null, { status, statusText: incoming.statusMessage, headers });
  }
  return new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, { status, statusText: incoming.statusMessage, headers });
}

/**
 * The app's request handler behind an HTTP server that never listens: connections reach it only from this process.
 * It is given the handler once the app is built, since the app's routes are built with it.
 */
export class InProcessHttp {
  private server: http.Server | null = null;
  private closed = false;

  serve(handler: http.RequestListener): void {
    this.server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
  }

  /**
   * Refuses every request from now on, as the closed listener refuses connections when the server shuts down: a tool
   * call then ends at once, rather than each of its requests being answered "shutting down" and sent again.
   */
  close(): void {
    this.closed = true;
  }

  /**
   * A fetch whose requests the app takes as from `clientAddress` (the address of the request on whose behalf they
   * are made), with `requestId` as their X-Request-Id so that their log lines name that request. The URL's host
   * is sent as the Host header; its path and query are the request's.
   */
  fetchFrom(clientAddress: string | null, requestId: string | null): InProcessFetch {
    return async (request) => {
      const { server } = this;
      if (server === null) throw new Error('the in-process HTTP server has no handler yet');
      if (this.closed) throw new TypeError('fetch failed: the server is shutting down and takes no more requests');
      request.signal.throwIfAborted();
      const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
      const url = new URL(request.url);
      const { clientEnd, serverEnd } = connection(clientAddress ?? undefined);
      server.emit('connection', serverEnd);
      return new Promise<Response>((resolve, reject) => {
        const outgoing = http.request({
          createConnection: () => clientEnd,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers: {
            ...Object.fromEntries(request.headers),
            ...(requestId === null ? {} : { 'x-request-id': requestId }),
            host: url.host,
            connection: 'close',
          },
        });
        // As fetch does: an abort rejects with the signal's reason, and ends a body still arriving.
        const abort = () => outgoing.destroy(request.signal.reason as Error);
        request.signal.addEventListener('abort', abort, { once: true });
        clientEnd.once('close', () => request.signal.removeEventListener('abort', abort));
        outgoing.once('error', reject);
        outgoing.once('response', (incoming) => resolve(responseOf(incoming, request.method)));
        outgoing.end(body);
      });
    };
  }
}
