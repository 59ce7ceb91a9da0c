// SMTP front door: STARTTLS and implicit TLS, size limits, the policy chain at each command, and capture through the ingest pipeline.
import { Socket, type AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../errors.js';
import type { Inbox } from '../domain/types.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import type { InboxService } from '../services/mail/inboxes.js';
import type { CaptureAdmission, CaptureTicket } from '../services/capture/capture-admission.js';
import { MessageSpool } from './message-spool.js';
import { ConnectionCaps, LISTEN_BACKLOG, type ConnectionCap, type ConnectionPlace } from '../domain/connection-caps.js';
import { addressKey } from '../domain/address-key.js';
import type { TlsMaterial } from './tls-material.js';
import type { CaptureObserver } from '../ingest/ingest-message.js';
import type { OpenCount, SmtpStage } from '../observability/metrics.js';
import { decide, type LoginContext, type PolicyContext, type PolicyContexts, type PolicyHook, type SmtpPolicy, type Verdict } from './smtp-policy.js';
import { loginContext } from './session-policies.js';
import { readPaths } from './smtp-paths.js';
import type { OpenInbox } from '../services/mail/open-inbox.js';

export interface SmtpCaptureOptions {
  bind: string;
  smtpPort: number;
  smtpsPort: number;
  hostname: string;
  maxMessageBytes: number;
  shutdownGraceMs: number;
  /** SANDBOX_SMTP_REQUIRE_TLS: AUTH on the plain port is refused until STARTTLS. */
  requireTlsForAuth: boolean;
  /**
   * Sessions open at once, overall and per client address, and of them the unauthenticated ones (connection-caps.ts);
   * how long one may take to authenticate; the prefix IPv6 client addresses are counted by.
   */
  connections: { max: number; perAddress: number; unauthenticatedMax: number; unauthenticatedPerAddress: number; authTimeoutMs: number; ipv6PrefixBits: number };
  /** This process's spool directory, and the message size past which DATA goes there rather than to memory. */
  spool: { dir: string; thresholdBytes: number };
  tls: TlsMaterial;
  /** SANDBOX_OPEN_INBOX: a plain port of its own whose sessions need no AUTH and capture into one inbox only; null: none. */
  openInbox: OpenInboxPort | null;
}

/** The open inbox's port: where it listens, how its inbox is found, and the policies its sessions meet instead of the login's. */
export interface OpenInboxPort {
  port: number;
  bind: string;
  /** The open inbox as storage holds it now; throws not_found naming why when there is none. */
  inbox: Pick<OpenInbox, 'current'>;
  /** The login's chain less authPolicy: each MAIL FROM has just found the inbox (quota, size, recipients, chaos). */
  policies: readonly SmtpPolicy[];
}

/** The ports bound: the open inbox's is null unless SANDBOX_OPEN_INBOX is set. */
export interface SmtpPorts {
  smtpPort: number;
  smtpsPort: number;
  openInboxSmtpPort: number | null;
}

/**
 * What a session keeps from its login: the inbox as last read (fresh settings for later stages), the password hash to
 * detect a rotation. An open inbox's session has it from its MAIL FROM, and no password hash.
 */
interface SessionUser {
  inbox: Inbox;
  passwordHash: string | null;
}

/**
 * What AUTH on the open inbox's port logs a session in as: any username and password are accepted unread (as Mailpit
 * accepts any with its accept-any setting), and the session still captures into the open inbox only. No credentials
 * are looked up there, so the port can neither reach another inbox nor test another inbox's password.
 */
const OPEN_PORT_LOGIN = 'any credentials, on the open inbox port';

type SmtpError = Error & { responseCode: number };
type SmtpConnection = SMTPServer['connections'] extends Set<infer C> ? C : never;

/**
 * The SMTP reply for an application error, its enhanced status code first: each connection sends such a line as it
 * is (sendingOwnEnhancedCodes), since smtp-server derives one enhanced code per basic code and 451 has several.
 */
function smtpErrorFor(error: unknown): SmtpError {
  const appError = toAppError(error);
  const message = appError.expose ? appError.message : 'Local error while storing the message, try again later';
  const { code, enhanced } = appError.smtpReply;
  return Object.assign(new Error(`${enhanced} ${message}`), { responseCode: code });
}

/**
 * The socket the listener accepted for a connection: an implicit-TLS session's socket wraps it (Node's TLSSocket keeps
 * the socket it wraps as _parent).
 */
function acceptedSocket(connection: SmtpConnection): Socket {
  const socket = connection._socket as Socket & { _parent?: unknown };
  return socket._parent instanceof Socket ? socket._parent : socket;
}

/** A reply line that starts with its own RFC 3463 enhanced code. */
const OWN_ENHANCED_CODE = /^[245]\.\d{1,3}\.\d{1,3} /;

/** What the front door reports as it goes (the metrics, in the server). */
export interface SmtpObserver extends CaptureObserver {
  smtpConnections: { inc(): void };
  smtpSessionsOpen: OpenCount;
  smtpReplied(stage: SmtpStage, code: number): void;
  storageFailed(component: string): void;
  /** An idle unauthenticated session was closed to admit a new one. */
  connectionEvicted(port: 'smtp'): void;
}

/** After the transactions have drained, idle sessions get this long before they are told 421 and closed. */
const IDLE_SESSION_CLOSE_MS = 1000;

export class SmtpCaptureServer {
  private readonly servers: SMTPServer[] = [];
  private draining = false;
  private idleWaiters: (() => void)[] = [];
  /** Sessions counted as open; smtp-server may report the close of a socket it never announced. */
  private readonly openSessions = new Set<string>();
  /** Both ports' connections, counted from accept to close. */
  private readonly connectionCaps: ConnectionCaps;
  /**
   * Each accepted socket's place: given back on its close, or on its session's (onClose), whichever comes first.
   * STARTTLS strips the plain socket's listeners, so once a session exists its close is the one relied on.
   */
  private readonly socketPlaces = new WeakMap<Socket, ConnectionPlace>();
  private readonly sessionPlaces = new Map<string, ConnectionPlace>();
  /** The session each accepted socket carries, once smtp-server has built it: the one an eviction tells why. */
  private readonly socketSessions = new WeakMap<Socket, { server: SMTPServer; sessionId: string }>();
  /** The 421 4.7.0 line for each cap, written whole: a flood of refusals builds nothing per socket. */
  private readonly capRefusals: Record<ConnectionCap, string>;
  /** Each session not yet authenticated: the timer that closes it unless it authenticates first. */
  private readonly authDeadlines = new Map<string, NodeJS.Timeout>();
  /**
   * The open transactions, by session: from MAIL FROM (admitted before its policies, so a chaos delay counts) to the
   * end of DATA or a disconnect, each with its admission ticket.
   */
  private readonly tickets = new Map<string, CaptureTicket>();
  /**
   * The sessions of the open inbox's port, each with the inbox its last MAIL FROM found (null before one). They stay
   * unauthenticated under the connection caps: the open port never takes the share kept for logged-in sessions.
   */
  private readonly openInboxSessions = new Map<string, SessionUser | null>();
  /** The MAIL FROM and RCPT TO addresses whose paths were sent with characters beyond ASCII (smtp-paths.ts). */
  private readonly pathsBeyondAscii = new WeakSet<object>();

  /**
   * `policies` answer each command in order (smtp-policy.ts): auth, quota, size, recipient limit, chaos. At AUTH they
   * are asked only once the login opened an inbox.
   */
  constructor(
    private readonly options: SmtpCaptureOptions,
    private readonly policies: readonly SmtpPolicy[],
    private readonly inboxes: InboxService,
    private readonly pipeline: IngestPipeline,
    private readonly captures: CaptureAdmission,
    private readonly log: Logger,
    private readonly observer: SmtpObserver,
  ) {
    const { max, perAddress, unauthenticatedMax, unauthenticatedPerAddress } = options.connections;
    this.connectionCaps = new ConnectionCaps({ max, perAddress, unauthenticatedMax, unauthenticatedPerAddress });
    const line = (message: string) => {
      const reply = smtpErrorFor(new AppError('too_many_connections', message));
      return `${reply.responseCode} ${reply.message}\r\n`;
    };
    this.capRefusals = {
      overall: line(`Too many SMTP sessions (${max}) are open; try again later`),
      unauthenticated: line(`Too many SMTP sessions (${unauthenticatedMax}) that have not authenticated are open; try again later`),
      address: line(`Too many SMTP sessions (${perAddress}) are open from your address; try again later`),
      address_unauthenticated: line(`Too many SMTP sessions (${unauthenticatedPerAddress}) that have not authenticated are open from your address; authenticate on the ones open, or close some`),
    };
  }

  /** Starts the plain (STARTTLS) and implicit-TLS listeners, and the open inbox's; resolves to the ports actually bound. */
  async listen(): Promise<SmtpPorts> {
    const plain = this.createServer(false, false);
    const implicitTls = this.createServer(true, false);
    this.servers.push(plain, implicitTls);
    const smtpPort = await this.bindServer(plain, this.options.smtpPort, this.options.bind);
    const smtpsPort = await this.bindServer(implicitTls, this.options.smtpsPort, this.options.bind);
    const { openInbox } = this.options;
    if (!openInbox) return { smtpPort, smtpsPort, openInboxSmtpPort: null };
    const open = this.createServer(false, true);
    this.servers.push(open);
    return { smtpPort, smtpsPort, openInboxSmtpPort: await this.bindServer(open, openInbox.port, openInbox.bind) };
  }

  /** From now on new sessions and new transactions are refused with 421; transfers under way finish. */
  beginShutdown(): void {
    this.draining = true;
  }

  /** Resolves when no transaction is open, or after timeoutMs, whichever comes first. */
  async transactionsFinished(timeoutMs: number): Promise<void> {
    if (this.tickets.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private endTransaction(sessionId: string): void {
    const ticket = this.tickets.get(sessionId);
    // An open inbox session's transaction is over: it may be evicted again while it idles.
    if (ticket && this.openInboxSessions.has(sessionId)) this.sessionPlaces.get(sessionId)?.idle();
    ticket?.release();
    this.tickets.delete(sessionId);
    if (this.tickets.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Stops listening; sessions still connected are sent 421 and closed shortly after. */
  async close(): Promise<void> {
    this.draining = true;
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  private bindServer(server: SMTPServer, port: number, bind: string): Promise<number> {
    return new Promise((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, bind, LISTEN_BACKLOG, () => {
        server.server.off('error', reject);
        resolve((server.server.address() as AddressInfo).port);
      });
    });
  }

  /** `open`: the open inbox's port, where mail needs no AUTH and every session captures into that inbox. */
  private createServer(secure: boolean, open: boolean): SMTPServer {
    const options: SMTPServerOptions = {
      secure,
      name: this.options.hostname,
      banner: 'mail-sandbox: mail is captured, never delivered',
      key: this.options.tls.key,
      cert: this.options.tls.cert,
      size: this.options.maxMessageBytes,
      // smtp-server then answers an oversized DATA itself with 552 5.3.4 (a bare 552 would read as 5.2.2, the quota code).
      rejectOversized: true,
      authMethods: ['PLAIN', 'LOGIN'],
      // Enhanced status codes (RFC 3463) tell test tooling why a message was refused: 5.3.4 size, 5.2.2 quota.
      hideENHANCEDSTATUSCODES: false,
      // Internationalised mail (RFC 6531, 6532, 6152): UTF-8 addresses and header fields, 8-bit bodies. smtpUtf8Policy
      // holds a transaction to the SMTPUTF8 it must declare for a UTF-8 address.
      hideSMTPUTF8: false,
      hide8BITMIME: false,
      // Test senders commonly talk plain SMTP on a private network; the credentials only open one sandbox inbox.
      allowInsecureAuth: true,
      authOptional: open,
      authRequiredMessage: "Authentication required: AUTH PLAIN or LOGIN with the inbox's SMTP username and password",
      // Shutdown waits for open transactions itself (transactionsFinished) before closing the servers.
      closeTimeout: IDLE_SESSION_CLOSE_MS,
      logger: false,
      // A name lookup per connection is work a stranger chooses the cost of (their name server decides how slowly it
      // answers), and nothing here uses the name.
      disableReverseLookup: true,
      onConnect: (session, callback) => {
        this.observer.smtpSessionsOpen.inc();
        this.openSessions.add(session.id);
        const connection = this.connectionOf(server, session.id);
        const accepted = connection && acceptedSocket(connection);
        const place = accepted && this.socketPlaces.get(accepted);
        if (accepted && place) {
          this.sessionPlaces.set(session.id, place);
          this.socketSessions.set(accepted, { server, sessionId: session.id });
        }
        if (connection) {
          this.sendOwnEnhancedCodes(connection);
          readPaths(connection, this.pathsBeyondAscii);
        }
        if (open) this.openInboxSessions.set(session.id, null);
        if (this.draining) return callback(this.shuttingDown());
        this.startAuthDeadline(server, session.id);
        if (connection && !secure && this.options.requireTlsForAuth) this.refuseAuthInTheClear(connection);
        callback();
      },
      // A session that leaves mid-transaction (RSET-less disconnect) must not hold up shutdown.
      onClose: (session) => {
        if (this.openSessions.delete(session.id)) this.observer.smtpSessionsOpen.dec();
        this.clearAuthDeadline(session.id);
        this.sessionPlaces.get(session.id)?.release();
        this.sessionPlaces.delete(session.id);
        this.endTransaction(session.id);
        this.openInboxSessions.delete(session.id);
      },
      onAuth: (auth, session, callback) => {
        if (auth.method !== 'PLAIN' && auth.method !== 'LOGIN') {
          return callback(this.refused('auth', Object.assign(new Error('Unsupported AUTH method'), { responseCode: 504 })));
        }
        if (open) {
          // Nothing is looked up, and the session stays what it was: unauthenticated, bound for the open inbox.
          this.observer.smtpReplied('auth', 235);
          return callback(null, { user: OPEN_PORT_LOGIN });
        }
        // A login being checked is not idle: the session is not closed under it to admit another.
        const place = this.sessionPlaces.get(session.id);
        place?.busy();
        void this.passesLogin(session, auth.username ?? '', auth.password ?? '', callback).then(async (context) => {
          place?.idle();
          if (!context) return;
          const inbox = await context.inbox();
          place?.authenticated();
          this.clearAuthDeadline(session.id);
          this.observer.smtpReplied('auth', 235);
          callback(null, { user: { inbox, passwordHash: inbox.smtpPasswordHash } satisfies SessionUser });
        });
      },
      onMailFrom: (address, session, callback) => {
        if (this.draining) return callback(this.refused('mail', this.shuttingDown()));
        void this.transactionUser(session).then((user) => {
          // Admission comes before the policies, so a transaction they hold (a chaos delay) counts against the caps.
          if (user && !this.tickets.has(session.id)) {
            try {
              this.tickets.set(session.id, this.captures.open(user.inbox.workspaceId));
            } catch (error) {
              return callback(this.failed('mail', error));
            }
            // An open inbox session is not evicted while its transaction is under way.
            if (open) this.sessionPlaces.get(session.id)?.busy();
          }
          return this.passes('mail', session, () => this.sessionContext(session, { path: address }), callback).then((passed) => {
            if (!passed) {
              this.endTransaction(session.id);
              return;
            }
            // On the open inbox's port a transaction, not a login, is what ends the wait for one.
            if (open) this.clearAuthDeadline(session.id);
            this.observer.smtpReplied('mail', 250);
            callback();
          });
        }, (error: unknown) => callback(this.failed('mail', error)));
      },
      onRcptTo: (address, session, callback) => {
        void this.passes('rcpt', session, () => this.sessionContext(session, { path: address }), callback).then((passed) => {
          if (!passed) return;
          this.observer.smtpReplied('rcpt', 250);
          callback();
        });
      },
      onData: (stream, session, callback) => {
        const ticket = this.tickets.get(session.id);
        // MAIL FROM before AUTH never got this far (530), so every transaction reaching DATA holds a ticket.
        if (!ticket) return callback(this.failed('data', new AppError('auth_required', 'Authentication required')));
        const { dir, thresholdBytes } = this.options.spool;
        const spool = new MessageSpool(dir, thresholdBytes, ticket, () => stream.sizeExceeded);
        let failed = false;
        stream.once('error', () => {
          // The client went away mid-DATA: nothing complete arrived, so nothing is stored.
          failed = true;
          void spool.discard();
          this.endTransaction(session.id);
        });
        spool.once('error', (error) => {
          failed = true;
          stream.unpipe(spool);
          stream.resume();
          void spool.discard();
          // The rest of DATA still arrives; smtp-server answers once it has.
          stream.once('end', () => {
            callback(this.failed('data', new AppError('storage_unavailable', 'the message could not be spooled, try again later', { cause: error, component: 'spool' })));
            this.endTransaction(session.id);
          });
        });
        spool.once('overCap', () => {
          // Past the size limit smtp-server answers 552 itself once DATA ends.
          if (stream.sizeExceeded) return;
          failed = true;
          this.closeOverBuffered(server, session.id, ticket.overBuffered());
        });
        stream.pipe(spool);
        spool.once('finish', () => {
          if (failed) return;
          void this.passes('data', session, () => this.sessionContext(session, { sizeExceeded: stream.sizeExceeded }), callback).then((passed) => {
            if (!passed) {
              void spool.discard();
              this.endTransaction(session.id);
              return;
            }
            spool.bytes().then((raw) => this.capture(session, raw)).then(
              (id) => {
                this.observer.smtpReplied('data', 250);
                callback(null, `Message stored as ${id}`);
              },
              (error) => callback(this.failed('data', error)),
            ).finally(() => this.endTransaction(session.id));
          });
        });
      },
    };
    // onConnect names this server; it first runs when a connection arrives, long after this line.
    const server: SMTPServer = new SMTPServer(options);
    server.on('error', (error) => this.log.warn({ err: error }, 'smtp connection error'));
    this.admitAtAccept(server, secure);
    return server;
  }

  /**
   * Puts the connection caps in front of smtp-server's own connection handler, so a connection past them is refused
   * before smtp-server builds a session for it (an id from the random source, a parser, timers, socket options):
   * under a flood of thousands of connections that work, not the refusal, held the event loop. The plain port
   * answers 421 4.7.0 and closes; the implicit-TLS port can say nothing before a handshake, and a handshake is the
   * work the cap is there to save, so it closes at once.
   */
  private admitAtAccept(server: SMTPServer, secure: boolean): void {
    const listener = server.server;
    const handlers = listener.listeners('connection') as ((socket: Socket) => void)[];
    if (handlers.length !== 1) throw new Error(`smtp-server accepts through ${handlers.length} connection listeners, not one: the connection caps need a new place in front of it`);
    const handOver = handlers[0]!;
    listener.removeAllListeners('connection');
    listener.on('connection', (socket: Socket) => {
      this.observer.smtpConnections.inc();
      const key = addressKey(socket.remoteAddress ?? 'unknown', this.options.connections.ipv6PrefixBits);
      const claim = this.connectionCaps.claim(key, () => this.evict(socket));
      if (typeof claim !== 'string') {
        socket.once('close', () => claim.release());
        this.socketPlaces.set(socket, claim);
        handOver(socket);
        return;
      }
      this.observer.smtpReplied('connect', 421);
      socket.on('error', () => socket.destroy());
      if (secure) socket.destroy();
      else socket.end(this.capRefusals[claim], () => socket.destroy());
    });
  }

  /**
   * An idle session that has not authenticated, closed to admit a new one near the caps: told why with 421 4.7.0
   * (a 421 closes it), or, before smtp-server has built its session (an implicit-TLS handshake), closed at once.
   */
  private evict(socket: Socket): void {
    this.observer.connectionEvicted('smtp');
    const carried = this.socketSessions.get(socket);
    const connection = carried && this.connectionOf(carried.server, carried.sessionId);
    if (!connection) {
      socket.destroy();
      return;
    }
    this.observer.smtpReplied('connect', 421);
    connection.send(421, '4.7.0 Closing this unauthenticated session to admit another: the server is at its connection cap; authenticate sooner after connecting');
  }

  /** An admitted session gets the AUTH timeout: it is closed unless it authenticates first. */
  private startAuthDeadline(server: SMTPServer, sessionId: string): void {
    const deadline = setTimeout(() => this.closeUnauthenticated(server, sessionId), this.options.connections.authTimeoutMs);
    deadline.unref();
    this.authDeadlines.set(sessionId, deadline);
  }

  private clearAuthDeadline(sessionId: string): void {
    clearTimeout(this.authDeadlines.get(sessionId));
    this.authDeadlines.delete(sessionId);
  }

  /**
   * A session that holds a connection without authenticating (on the open inbox's port: without a mail transaction)
   * is told why and closed (a 421 closes it).
   */
  private closeUnauthenticated(server: SMTPServer, sessionId: string): void {
    const connection = this.connectionOf(server, sessionId);
    const open = this.openInboxSessions.has(sessionId);
    if (!connection || (open ? this.openInboxSessions.get(sessionId) : connection.session.user)) return;
    const seconds = Math.round(this.options.connections.authTimeoutMs / 1000);
    const why = open ? `No mail transaction within ${seconds}s of connecting` : `No successful AUTH within ${seconds}s of connecting`;
    const reply = this.refused('connect', smtpErrorFor(new AppError('auth_timeout', `${why}, closing connection`)));
    connection.send(reply.responseCode, reply.message);
  }

  /**
   * A message that does not fit the byte caps is refused as soon as it passes them, with 421 4.3.2, and its connection
   * closed (a 421 closes it): the rest of DATA would otherwise be read and scanned on the event loop only to be
   * dropped — up to the size limit for every such transaction. The sender retries later, as after a 451.
   */
  private closeOverBuffered(server: SMTPServer, sessionId: string, refusal: AppError): void {
    this.observer.captureFinished('smtp', 'too_many_transactions', 0);
    this.observer.smtpReplied('data', 421);
    this.endTransaction(sessionId);
    this.connectionOf(server, sessionId)?.send(421, `4.3.2 ${refusal.message}; closing connection`);
  }

  private connectionOf(server: SMTPServer, sessionId: string): SmtpConnection | undefined {
    for (const connection of server.connections) if (connection.id === sessionId) return connection;
    return undefined;
  }

  /** Reply lines that carry their own enhanced code (smtpErrorFor's) are sent without smtp-server's derived one. */
  private sendOwnEnhancedCodes(connection: SmtpConnection): void {
    const send = connection.send.bind(connection);
    connection.send = (code, data, context) => send(code, data, typeof data === 'string' && OWN_ENHANCED_CODE.test(data) ? false : context);
  }

  /**
   * SANDBOX_SMTP_REQUIRE_TLS: AUTH before STARTTLS is answered 538 5.7.11 (RFC 4954) at the command, before a
   * password crosses the wire. smtp-server's own check (allowInsecureAuth: false) answers 538 with 5.7.0 and no hook
   * chooses the enhanced code, so this connection's AUTH handler writes the whole reply, enhanced code included.
   */
  private refuseAuthInTheClear(connection: SmtpConnection): void {
    const handleAuth = connection.handler_AUTH.bind(connection);
    connection.handler_AUTH = (command, callback) => {
      // STARTTLS upgrades this same connection; from then on AUTH goes its usual way.
      if (connection.secure) return handleAuth(command, callback);
      const reply = this.refused('auth', smtpErrorFor(new AppError('encryption_required', 'Encryption required for requested authentication mechanism')));
      connection.send(reply.responseCode, reply.message);
      callback();
    };
  }

  /** The refusal for an application error, counted; a storage failure is counted against its component too. */
  private failed(stage: SmtpStage, error: unknown): SmtpError {
    const appError = toAppError(error);
    if (appError.code === 'storage_unavailable') this.observer.storageFailed(appError.component ?? 'unknown');
    return this.refused(stage, smtpErrorFor(appError));
  }

  /** Counts a refusal on its way to the client. */
  private refused(stage: SmtpStage, error: SmtpError): SmtpError {
    this.observer.smtpReplied(stage, error.responseCode);
    return error;
  }

  private shuttingDown(): SmtpError {
    return smtpErrorFor(new AppError('shutting_down', 'Server shutting down, try again shortly'));
  }

  /**
   * Asks the policies about one command. Resolves true when all continue; otherwise the command is answered through
   * `refuse` (or the connection dropped) and it resolves false. At DATA a refused message counts as a capture refused.
   */
  private async passes<Hook extends PolicyHook>(hook: Hook, session: SMTPServerSession, context: () => PolicyContexts[Hook], refuse: (error: SmtpError) => void): Promise<boolean> {
    let verdict: Verdict;
    const policies = this.openInboxSessions.has(session.id) ? this.options.openInbox!.policies : this.policies;
    try {
      verdict = await decide(policies, hook, context());
    } catch (error) {
      verdict = { kind: 'refuse', error: toAppError(error), close: false };
    }
    if (verdict.kind === 'continue') return true;
    if (hook === 'data') this.observer.captureFinished('smtp', verdict.kind === 'drop' ? verdict.code : verdict.error.code, 0);
    if (verdict.kind === 'refuse') refuse(this.failed(hook, verdict.error));
    if (verdict.kind === 'drop' || verdict.close) this.closeConnection(session.id);
    return false;
  }

  /**
   * AUTH: the login, then the policies' AUTH hooks with the inbox it opened. Resolves the login's context when all
   * continue; otherwise the command is answered through `refuse` (as `passes` answers) and it resolves null.
   */
  private async passesLogin(session: SMTPServerSession, username: string, password: string, refuse: (error: SmtpError) => void): Promise<LoginContext | null> {
    let context: LoginContext;
    try {
      context = await loginContext(this.inboxes, session.id, username, password);
    } catch (error) {
      refuse(this.failed('auth', error));
      return null;
    }
    return (await this.passes('auth', session, () => context, refuse)) ? context : null;
  }

  /**
   * Who a new transaction is for: the login's inbox, or on the open inbox's port that inbox as storage holds it now
   * (rejects not_found naming why when there is none), kept for the transaction's later commands and its capture.
   */
  private async transactionUser(session: SMTPServerSession): Promise<SessionUser | undefined> {
    if (!this.openInboxSessions.has(session.id)) return session.user as SessionUser | undefined;
    const user: SessionUser = { inbox: await this.options.openInbox!.inbox.current(), passwordHash: null };
    // The session may have closed during the lookup; a closed session keeps no entry.
    if (this.openInboxSessions.has(session.id)) this.openInboxSessions.set(session.id, user);
    return user;
  }

  /** The session's user as its login, or its open inbox transaction, left it. */
  private userOf(session: SMTPServerSession): SessionUser | undefined {
    if (this.openInboxSessions.has(session.id)) return this.openInboxSessions.get(session.id) ?? undefined;
    return session.user as SessionUser | undefined;
  }

  /**
   * After AUTH: the session's inbox, read again for this command, so every node's latest settings apply; at MAIL FROM
   * and RCPT TO the command's address.
   */
  private sessionContext(session: SMTPServerSession, command: { path?: SMTPServerAddress; sizeExceeded?: boolean } = {}): PolicyContext {
    const user = this.userOf(session);
    if (!user) throw new AppError('auth_required', 'Authentication required');
    let inbox: Promise<Inbox | null> | null = null;
    return {
      sessionId: session.id,
      inbox: () => (inbox ??= this.inboxes.find(user.inbox.workspaceId, user.inbox.id).then((current) => {
        // Later stages, and the capture, see the inbox as read now.
        if (current) user.inbox = current;
        return current;
      })),
      loginPasswordHash: user.passwordHash,
      recipients: session.envelope.rcptTo.length,
      path: command.path ? { address: command.path.address, beyondAscii: this.pathsBeyondAscii.has(command.path) } : null,
      smtpUtf8: session.envelope.smtpUtf8 === true,
      sizeExceeded: command.sizeExceeded ?? false,
    };
  }

  /** Closes a session's connection: after a refusal that ends it, or in place of any reply. */
  private closeConnection(sessionId: string): void {
    for (const server of this.servers) {
      for (const connection of server.connections) if (connection.id === sessionId) connection.close();
    }
  }

  private async capture(session: SMTPServerSession, raw: Buffer): Promise<string> {
    const user = this.userOf(session)!;
    const record = await this.pipeline.ingest({
      inbox: user.inbox,
      envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
      raw,
      tls: Boolean(session.secure),
      channel: 'smtp',
    });
    return record.id;
  }
}
