// Mailpit's event stream: GET /api/events upgraded to a WebSocket that sends one inbox's activity as Mailpit's JSON
// frames {Type, Data}. The upgrade is a request of the Koa app like any other (Host check, base path, rate limit),
// authenticated as the Mailpit API is, checked for a foreign Origin, and counted among the workspace's event streams.
import type { Socket } from 'node:net';
import type { Context, Middleware, Next } from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError, toAppError } from '../../errors.js';
import type { RateLimiter } from '../../storage/ports.js';
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import type { ActivityItem, InboxActivity } from '../../services/realtime/inbox-activity.js';
import { foreignOriginRefusal } from '../csrf.js';
import { expectedOrigin } from '../request-origin.js';
import { upgradeHeadOf } from '../node-server.js';
import { enforceRateLimit } from '../rate-limit.js';
import { pauseBeforeRefusal } from '../refusal-pause.js';
import type { MailpitAuthenticator } from './mailpit-auth.js';
import { mailpitEventJson } from './mailpit-presenters.js';

export interface MailpitEventsDeps {
  authenticator: Pick<MailpitAuthenticator, 'authenticate'>;
  activity: Pick<InboxActivity, 'watch'>;
  rateLimiter: RateLimiter;
  workspaces: WorkspaceService;
  /** SANDBOX_PUBLIC_URL's origin, which a browser's Origin must name; null: the origin the request was made to. */
  publicOrigin: string | null;
  refusalPauseMs: number;
  /** SANDBOX_STREAM_HEARTBEAT_SECONDS: a ping this often; a client that has not answered the last one is dropped. */
  heartbeatMs: number;
  /** SANDBOX_STREAM_MAX_SECONDS: the socket is closed after this long, and the client connects again. */
  maxMs: number;
  connectionAuthenticated: (socket: Socket) => void;
  /** This server's version, which Mailpit's stats event carries. */
  version: string;
}

/** Mailpit's clients connect to /api/events, some with a doubled first slash (a base URL ending in one). */
const EVENTS_PATH = /^\/+api\/events$/;

/**
 * Frames a client has not read yet that a socket may hold; past it the client reads slower than its inbox changes,
 * and is closed (1013: try again later) rather than held in memory.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Mailpit's clients send nothing; a frame is kept small so a stranger cannot make the server buffer much. */
const MAX_CLIENT_FRAME_BYTES = 1024;

/** A refusal in plain text, as the Mailpit API answers; the upgrade never happens and the connection ends. */
function writeRefusal(ctx: Context, error: AppError): void {
  ctx.status = error.httpStatus;
  ctx.set('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = error.expose ? error.message : 'internal error';
}

/** What must hold before anything is looked up: a WebSocket handshake, from no other site's page. */
function checkHandshake(ctx: Context, publicOrigin: string | null): Buffer {
  const head = upgradeHeadOf(ctx.req);
  if (ctx.method !== 'GET' || head === null || ctx.get('upgrade').toLowerCase() !== 'websocket') {
    throw new AppError('invalid_request', '/api/events is a WebSocket: connect with GET and Upgrade: websocket');
  }
  if (!/^[A-Za-z0-9+/]{22}==$/.test(ctx.get('sec-websocket-key')) || ctx.get('sec-websocket-version') !== '13') {
    throw new AppError('invalid_request', 'the WebSocket handshake needs a Sec-WebSocket-Key and Sec-WebSocket-Version: 13');
  }
  // A browser sends its page's Origin on every WebSocket handshake, and Basic credentials it remembers (or none, for
  // the open inbox) with it: a page of another site must not listen. Clients that are not browsers send no Origin.
  const refusal = foreignOriginRefusal(ctx.get('origin'), expectedOrigin(ctx, publicOrigin));
  if (refusal) throw new AppError('csrf_failed', `${refusal}: a page of another site may not open this WebSocket`);
  return head;
}

/** How long a client has to answer the server's close frame before its connection is cut. */
const CLOSE_HANDSHAKE_MS = 1000;

/** Sends the activity to the socket as it comes; frames that arrive before the handshake ends wait for it. */
class EventSocket {
  private socket: WebSocket | null = null;
  private readonly early: string[] = [];
  private closed = false;
  private answeredPing = true;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Stops the watch of the inbox, which gives its place among the workspace's streams back. */
  private stopWatching: () => void = () => undefined;

  constructor(private readonly deps: Pick<MailpitEventsDeps, 'heartbeatMs' | 'maxMs' | 'version'>) {}

  watching(stop: () => void): void {
    // Closed already (the node began shutting down during the watch's start): the place goes back at once.
    if (this.closed) return stop();
    this.stopWatching = stop;
  }

  readonly tell = (item: ActivityItem): void => {
    if (item.kind === 'closed') return this.close(1001, 'the server is shutting down; connect again');
    const frame = JSON.stringify(mailpitEventJson(item, this.deps.version));
    if (this.socket === null) {
      this.early.push(frame);
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.close(1013, 'the client reads slower than events come; connect again');
    this.socket.send(frame);
  };

  opened(socket: WebSocket): void {
    if (this.closed) {
      socket.terminate();
      return;
    }
    this.socket = socket;
    socket.on('close', () => this.close());
    socket.on('error', () => socket.terminate());
    socket.on('pong', () => {
      this.answeredPing = true;
    });
    const heartbeat = setInterval(() => {
      if (!this.answeredPing) return socket.terminate();
      this.answeredPing = false;
      socket.ping();
    }, this.deps.heartbeatMs);
    this.timers.push(heartbeat, setTimeout(() => this.close(1000, 'the stream time limit was reached; connect again'), this.deps.maxMs));
    for (const frame of this.early.splice(0)) socket.send(frame);
  }

  /** Ends the stream once, however it ends: its place among the workspace's streams is given back. */
  close(code?: number, reason?: string): void {
    if (!this.closed) {
      this.closed = true;
      for (const timer of this.timers) clearTimeout(timer);
      this.stopWatching();
    }
    const socket = this.socket;
    if (socket && code !== undefined && socket.readyState === socket.OPEN) {
      socket.close(code, reason);
      // A client that never answers the close frame would hold the connection for ws's 30 s, past a shutdown's grace.
      setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS).unref();
    }
  }
}

export function mailpitEvents(deps: MailpitEventsDeps): Middleware {
  const server = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: MAX_CLIENT_FRAME_BYTES });
  return async (ctx: Context, next: Next) => {
    if (!EVENTS_PATH.test(ctx.path)) return next();
    let stream: EventSocket;
    let head: Buffer;
    try {
      head = checkHandshake(ctx, deps.publicOrigin);
      const access = await deps.authenticator.authenticate(ctx.req.headers);
      // Only a key makes the connection an authenticated one; the open inbox's carry no credentials.
      if (access.via === 'key') deps.connectionAuthenticated(ctx.req.socket);
      await enforceRateLimit(deps.rateLimiter, deps.workspaces, access.workspace);
      stream = new EventSocket(deps);
      stream.watching(await deps.activity.watch(access.workspace.id, access.inbox.id, stream.tell));
    } catch (thrown) {
      const error = toAppError(thrown);
      await pauseBeforeRefusal(ctx.req.socket, error, deps.refusalPauseMs);
      return writeRefusal(ctx, error);
    }
    // From here the socket is the WebSocket's; Koa writes nothing more to it.
    ctx.respond = false;
    ctx.req.socket.once('close', () => stream.close());
    server.handleUpgrade(ctx.req, ctx.req.socket, head, (socket) => stream.opened(socket));
  };
}
