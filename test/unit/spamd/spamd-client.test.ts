// The spamd client against stand-in servers that replay real replies, stall, hang up or answer too much,
// over TCP and over a unix socket: every way of not getting a report is a failure, and a prompt one.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/project-root.js';
import type { SpamdAddress } from '../../../src/config.js';
import { askSpamd, describeSpamdAddress, type SpamdOutcome } from '../../../src/spamd/spamd-client.js';

const fixture = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/spamd', name));
const GTUBE = fixture('gtube.eml');

/** What a stand-in server received on one connection: the request line, its headers and the message. */
interface Received {
  head: string;
  message: Buffer;
}

/** A server that hands each connection to `onConnection`; closed after each test. */
class StandIn {
  readonly requests: Received[] = [];
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(onConnection: (socket: net.Socket, standIn: StandIn) => void) {
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      onConnection(socket, this);
    });
  }

  /** Reads one whole request (as spamd does: the headers, then Content-length bytes) and calls `then` with it. */
  static readRequest(socket: net.Socket, standIn: StandIn, then: (request: Received) => void): void {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = buffered.subarray(0, headEnd).toString('latin1');
      const length = Number(/^Content-length: (\d+)$/m.exec(head)?.[1]);
      if (buffered.length - headEnd - 4 < length) return;
      const request = { head, message: buffered.subarray(headEnd + 4) };
      standIn.requests.push(request);
      then(request);
    });
  }

  async listen(address: { port: 0 } | { path: string }): Promise<SpamdAddress> {
    await new Promise<void>((resolve) => this.server.listen('path' in address ? address.path : { port: 0, host: '127.0.0.1' }, resolve));
    return 'path' in address ? address : { host: '127.0.0.1', port: (this.server.address() as net.AddressInfo).port };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A spamd stand-in that answers every whole request with a captured reply. */
const replaying = (reply: Buffer) => new StandIn((socket, standIn) => StandIn.readRequest(socket, standIn, () => socket.end(reply)));

function failureOf(outcome: SpamdOutcome): string {
  assert.ok('failure' in outcome, `expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome.failure;
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work;
  return { result, ms: performance.now() - started };
}

describe('askSpamd', () => {
  let standIn: StandIn | null = null;
  let socketDir: string;

  beforeEach(() => {
    socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spamd-client-'));
  });

  afterEach(async () => {
    await standIn?.close();
    standIn = null;
    fs.rmSync(socketDir, { recursive: true, force: true });
  });

  it('sends one REPORT request with the message byte for byte and reads the verdict, over TCP', async () => {
    standIn = replaying(fixture('gtube.reply'));
    const outcome = await askSpamd(await standIn.listen({ port: 0 }), GTUBE, { timeoutMs: 5000 });
    assert.ok('verdict' in outcome, JSON.stringify(outcome));
    assert.equal(outcome.verdict.isSpam, true);
    assert.ok(outcome.verdict.rules.some((rule) => rule.name === 'GTUBE'));
    assert.equal(standIn.requests.length, 1);
    assert.equal(standIn.requests[0]!.head, `REPORT SPAMC/1.5\r\nContent-length: ${GTUBE.length}`);
    assert.ok(standIn.requests[0]!.message.equals(GTUBE), 'the message reached spamd unchanged');
  });

  it('talks to spamd over a unix socket', async () => {
    standIn = replaying(fixture('ham-utf8.reply'));
    const address = await standIn.listen({ path: path.join(socketDir, 'spamd.sock') });
    const outcome = await askSpamd(address, fixture('ham-utf8.eml'), { timeoutMs: 5000 });
    assert.deepEqual(outcome, { verdict: { isSpam: false, score: 0, requiredScore: 5, rules: [] } });
  });

  it('fails when nothing listens: a closed port, a missing socket', async () => {
    const closed = new StandIn(() => undefined);
    const address = await closed.listen({ port: 0 });
    await closed.close();
    assert.equal(failureOf(await askSpamd(address, GTUBE, { timeoutMs: 5000 })), 'could not be reached (ECONNREFUSED)');
    assert.equal(failureOf(await askSpamd({ path: path.join(socketDir, 'none.sock') }, GTUBE, { timeoutMs: 5000 })), 'could not be reached (ENOENT)');
  });

  it('gives up on a spamd that takes the message and never answers, at the time limit', async () => {
    standIn = new StandIn((socket, self) => StandIn.readRequest(socket, self, () => undefined));
    const { result, ms } = await timed(askSpamd(await standIn.listen({ port: 0 }), GTUBE, { timeoutMs: 300 }));
    assert.equal(failureOf(result), 'did not answer within 300 ms');
    assert.ok(ms >= 290 && ms < 2000, `gave up after ${ms} ms`);
  });

  it('fails on a hang-up without an answer', async () => {
    standIn = new StandIn((socket, self) => StandIn.readRequest(socket, self, () => socket.end()));
    assert.equal(failureOf(await askSpamd(await standIn.listen({ port: 0 }), GTUBE, { timeoutMs: 5000 })), 'closed the connection without an answer');
  });

  it('reads an error reply that spamd sends before it has taken the whole message', async () => {
    standIn = new StandIn((socket) => socket.end(fixture('bad-command.reply')));
    const large = Buffer.alloc(8 * 1024 * 1024, 'a');
    assert.equal(failureOf(await askSpamd(await standIn.listen({ port: 0 }), large, { timeoutMs: 5000 })), 'gave no report: error reply 76 Bad header line: FOO SPAMC/1.5');
  });

  it('stops reading an answer too large to be a report', async () => {
    standIn = new StandIn((socket, self) => StandIn.readRequest(socket, self, () => {
      socket.write('SPAMD/1.1 0 EX_OK\r\nContent-length: 1000000\r\nSpam: False ; 0.0 / 5.0\r\n\r\n');
      socket.end(Buffer.alloc(1_000_000, 'x'));
    }));
    assert.match(failureOf(await askSpamd(await standIn.listen({ port: 0 }), GTUBE, { timeoutMs: 5000 })), /^answered more than \d+ bytes/);
  });

  it('ends the exchange at once when the check is cancelled', async () => {
    standIn = new StandIn((socket, self) => StandIn.readRequest(socket, self, () => undefined));
    const address = await standIn.listen({ port: 0 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { result, ms } = await timed(askSpamd(address, GTUBE, { timeoutMs: 10_000, signal: controller.signal }));
    assert.equal(failureOf(result), 'was not waited for: the check was cancelled');
    assert.ok(ms < 2000, `took ${ms} ms`);
    assert.equal(failureOf(await askSpamd(address, GTUBE, { timeoutMs: 10_000, signal: AbortSignal.abort() })), 'was not waited for: the check was cancelled');
  });

  it('names an address as SANDBOX_SPAMD_URL writes it', () => {
    assert.equal(describeSpamdAddress({ host: '127.0.0.1', port: 783 }), '127.0.0.1:783');
    assert.equal(describeSpamdAddress({ host: '::1', port: 783 }), '[::1]:783');
    assert.equal(describeSpamdAddress({ path: '/run/spamd.sock' }), '/run/spamd.sock');
  });
});
