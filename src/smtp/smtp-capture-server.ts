// SMTP front door: STARTTLS and implicit TLS, size limits, the policy chain at each command, and capture through the ingest pipeline.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../errors.js';
import type { Inbox } from '../domain/types.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import type { InboxService } from '../services/inboxes.js';
import type { TlsMaterial } from './tls-material.js';
import type { CaptureObserver } from '../ingest/ingest-message.js';
import type { OpenCount, SmtpStage } from '../observability/metrics.js';
import { decide, type PolicyContext, type SmtpPolicy, type Verdict } from './smtp-policy.js';

export interface SmtpCaptureOptions {
  bind: string;
  smtpPort: number;
  smtpsPort: number;
  hostname: string;
  maxMessageBytes: number;
  shutdownGraceMs: number;
  /** SANDBOX_SMTP_REQUIRE_TLS: AUTH on the plain port is refused until STARTTLS. */
  requireTlsForAuth: boolean;
  tls: TlsMaterial;
}

/** What a session keeps from its login: the inbox as last read (fresh settings for later stages), the password hash to detect a rotation. */
interface SessionUser {
  inbox: Inbox;
  passwordHash: string;
}

type SmtpError = Error & { responseCode: number };

/** The SMTP reply for an application error; smtp-server prefixes the enhanced status code. */
export function smtpErrorFor(error: unknown): SmtpError {
  const appError = toAppError(error);
  const message = appError.expose ? appError.message : 'Local error while storing the message, try again later';
  return Object.assign(new Error(message), { responseCode: appError.smtpReply.code });
}

/** What the front door reports as it goes (the metrics, in the server). */
export interface SmtpObserver extends CaptureObserver {
  smtpConnections: { inc(): void };
  smtpSessionsOpen: OpenCount;
  smtpReplied(stage: SmtpStage, code: number): void;
  storageFailed(component: string): void;
}

/** After the transactions have drained, idle sessions get this long before they are told 421 and closed. */
const IDLE_SESSION_CLOSE_MS = 1000;

export class SmtpCaptureServer {
  private readonly servers: SMTPServer[] = [];
  private draining = false;
  /** Sessions between an accepted MAIL FROM and the end of their DATA (or disconnect). */
  private readonly openTransactions = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  /** Sessions counted as open; smtp-server may report the close of a socket it never announced. */
  private readonly openSessions = new Set<string>();

  /** `policies` answer each command in order (smtp-policy.ts): auth, quota, size, recipient limit, chaos. */
  constructor(
    private readonly options: SmtpCaptureOptions,
    private readonly policies: readonly SmtpPolicy[],
    private readonly inboxes: InboxService,
    private readonly pipeline: IngestPipeline,
    private readonly log: Logger,
    private readonly observer: SmtpObserver,
  ) {}

  /** Starts the plain (STARTTLS) and implicit-TLS listeners; resolves to the ports actually bound. */
  async listen(): Promise<{ smtpPort: number; smtpsPort: number }> {
    const plain = this.createServer(false);
    const implicitTls = this.createServer(true);
    this.servers.push(plain, implicitTls);
    const smtpPort = await this.bindServer(plain, this.options.smtpPort);
    const smtpsPort = await this.bindServer(implicitTls, this.options.smtpsPort);
    return { smtpPort, smtpsPort };
  }

  /** From now on new sessions and new transactions are refused with 421; transfers under way finish. */
  beginShutdown(): void {
    this.draining = true;
  }

  /** Resolves when no transaction is open, or after timeoutMs, whichever comes first. */
  async transactionsFinished(timeoutMs: number): Promise<void> {
    if (this.openTransactions.size === 0) return;
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
    this.openTransactions.delete(sessionId);
    if (this.openTransactions.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Stops listening; sessions still connected are sent 421 and closed shortly after. */
  async close(): Promise<void> {
    this.draining = true;
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  private bindServer(server: SMTPServer, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, this.options.bind, () => {
        server.server.off('error', reject);
        resolve((server.server.address() as AddressInfo).port);
      });
    });
  }

  private createServer(secure: boolean): SMTPServer {
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
      // Test senders commonly talk plain SMTP on a private network; the credentials only open one sandbox inbox.
      allowInsecureAuth: true,
      authRequiredMessage: "Authentication required: AUTH PLAIN or LOGIN with the inbox's SMTP username and password",
      // Shutdown waits for open transactions itself (transactionsFinished) before closing the servers.
      closeTimeout: IDLE_SESSION_CLOSE_MS,
      logger: false,
      onConnect: (session, callback) => {
        this.observer.smtpConnections.inc();
        this.observer.smtpSessionsOpen.inc();
        this.openSessions.add(session.id);
        if (!secure && this.options.requireTlsForAuth) this.refuseAuthInTheClear(server, session.id);
        callback(this.draining ? this.shuttingDown() : undefined);
      },
      // A session that leaves mid-transaction (RSET-less disconnect) must not hold up shutdown.
      onClose: (session) => {
        if (this.openSessions.delete(session.id)) this.observer.smtpSessionsOpen.dec();
        this.endTransaction(session.id);
      },
      onAuth: (auth, session, callback) => {
        if (auth.method !== 'PLAIN' && auth.method !== 'LOGIN') {
          return callback(this.refused('auth', Object.assign(new Error('Unsupported AUTH method'), { responseCode: 504 })));
        }
        const context = this.loginContext(session, auth.username ?? '', auth.password ?? '');
        void this.passes('auth', session, () => context, callback).then(async (passed) => {
          if (!passed) return;
          // The auth policy continued, so the credentials open this inbox.
          const inbox = (await context.inbox())!;
          this.observer.smtpReplied('auth', 235);
          callback(null, { user: { inbox, passwordHash: inbox.smtpPasswordHash } satisfies SessionUser });
        });
      },
      onMailFrom: (_address, session, callback) => {
        if (this.draining) return callback(this.refused('mail', this.shuttingDown()));
        void this.passes('mail', session, () => this.sessionContext(session), callback).then((passed) => {
          if (!passed) return;
          this.openTransactions.add(session.id);
          this.observer.smtpReplied('mail', 250);
          callback();
        });
      },
      onRcptTo: (_address, session, callback) => {
        void this.passes('rcpt', session, () => this.sessionContext(session), callback).then((passed) => {
          if (!passed) return;
          this.observer.smtpReplied('rcpt', 250);
          callback();
        });
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        let failed = false;
        stream.on('data', (chunk: Buffer) => {
          // Past the limit the rest is drained unread; smtp-server answers 552 once the client stops sending.
          if (!stream.sizeExceeded) chunks.push(chunk);
        });
        stream.once('error', () => {
          // The client went away mid-DATA: nothing complete arrived, so nothing is stored.
          failed = true;
          this.endTransaction(session.id);
        });
        stream.once('end', () => {
          if (failed) return;
          void this.passes('data', session, () => this.sessionContext(session, stream.sizeExceeded), callback).then((passed) => {
            if (!passed) {
              this.endTransaction(session.id);
              return;
            }
            this.capture(session, Buffer.concat(chunks)).then(
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
    return server;
  }

  /**
   * SANDBOX_SMTP_REQUIRE_TLS: AUTH before STARTTLS is answered 538 5.7.11 (RFC 4954) at the command, before a
   * password crosses the wire. smtp-server's own check (allowInsecureAuth: false) answers 538 with 5.7.0 and no hook
   * chooses the enhanced code, so this connection's AUTH handler writes the whole reply, enhanced code included.
   */
  private refuseAuthInTheClear(server: SMTPServer, sessionId: string): void {
    const connection = [...server.connections].find((candidate) => candidate.id === sessionId);
    if (!connection) return;
    const handleAuth = connection.handler_AUTH.bind(connection);
    connection.handler_AUTH = (command, callback) => {
      // STARTTLS upgrades this same connection; from then on AUTH goes its usual way.
      if (connection.secure) return handleAuth(command, callback);
      const { smtpReply, message } = new AppError('encryption_required', 'Encryption required for requested authentication mechanism');
      this.observer.smtpReplied('auth', smtpReply.code);
      connection.send(smtpReply.code, `${smtpReply.enhanced} ${message}`, false);
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
  private async passes(hook: SmtpStage, session: SMTPServerSession, context: () => PolicyContext, refuse: (error: SmtpError) => void): Promise<boolean> {
    let verdict: Verdict;
    try {
      verdict = await decide(this.policies, hook, context());
    } catch (error) {
      verdict = { kind: 'refuse', error: toAppError(error), close: false };
    }
    if (verdict.kind === 'continue') return true;
    if (hook === 'data') this.observer.captureFinished('smtp', verdict.kind === 'drop' ? verdict.code : verdict.error.code, 0);
    if (verdict.kind === 'refuse') refuse(this.failed(hook, verdict.error));
    if (verdict.kind === 'drop' || verdict.close) this.closeConnection(session.id);
    return false;
  }

  /** At AUTH: the inbox is the one the credentials open, looked up once whichever policies ask. */
  private loginContext(session: SMTPServerSession, username: string, password: string): PolicyContext {
    let inbox: Promise<Inbox | null> | null = null;
    return {
      sessionId: session.id,
      inbox: () => (inbox ??= this.inboxes.authenticateSmtp(username, password)),
      loginPasswordHash: null,
      recipients: 0,
      sizeExceeded: false,
    };
  }

  /** After AUTH: the session's inbox, read again for this command, so every node's latest settings apply. */
  private sessionContext(session: SMTPServerSession, sizeExceeded = false): PolicyContext {
    const user = session.user as SessionUser | undefined;
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
      sizeExceeded,
    };
  }

  /** Closes a session's connection: after a refusal that ends it, or in place of any reply. */
  private closeConnection(sessionId: string): void {
    for (const server of this.servers) {
      for (const connection of server.connections) if (connection.id === sessionId) connection.close();
    }
  }

  private async capture(session: SMTPServerSession, raw: Buffer): Promise<string> {
    const user = session.user as SessionUser;
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
