// Tenant A's idle-connection attacks for the noisy-neighbour bench (issues 23 and 35): connections that send nothing, or one request and then nothing, held from one loopback address or from a few, counting what the server answered them.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ConnectionLimits } from '../../src/config.js';
import { httpAnswer, noAnswer, smtpAnswer, type AnswerCounts } from './answers.js';
import { sleep, untilDeadline, type Attack, type AttackOptions } from './noisy-neighbour-attacks.js';

/** The server's ports, and the connection caps it runs with (after any lowering to fit its open-file limit). */
export interface ServerPorts {
  smtpPort: number;
  httpPort: number;
  caps: ConnectionLimits;
}

/** The loopback address the connection flood comes from, so per-address caps tell it from B (127.0.0.1). */
export const FLOOD_ADDRESS = '127.0.0.66';
/** Connections opened at once, per kind. */
const OPENERS = 64;

/** Everything the server sent on one idle connection, and whether it closed it. */
interface IdleSocket {
  socket: net.Socket;
  received: string;
  closed: boolean;
}

/**
 * One connection from `from`: resolves with it once connected (after writing `greeting`, if any), or with null when
 * it could not connect (the error counted); never sends another byte.
 */
function connectIdle(port: number, from: string, greeting: string | null, answers: AnswerCounts): Promise<IdleSocket | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    const entry: IdleSocket = { socket, received: '', closed: false };
    let connected = false;
    socket.on('data', (chunk: Buffer) => (entry.received += chunk.toString('latin1')));
    socket.once('connect', () => {
      connected = true;
      if (greeting !== null) socket.write(greeting);
      resolve(entry);
    });
    // After connecting, a reset is how the server drops a connection: its close is what counts then.
    socket.on('error', (error) => {
      if (connected) return;
      answers.add(noAnswer(error));
      resolve(null);
    });
    socket.once('close', () => (entry.closed = true));
  });
}

/** Opens up to `count` connections from FLOOD_ADDRESS, OPENERS at a time, until the deadline; never sends a byte. */
async function openIdle(port: number, count: number, deadline: number, sockets: IdleSocket[], answers: AnswerCounts): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: OPENERS }, async () => {
      while (next < count && untilDeadline(deadline)) {
        next++;
        const entry = await connectIdle(port, FLOOD_ADDRESS, null, answers);
        if (entry) sockets.push(entry);
      }
    }),
  );
}

/** What the server answered on each SMTP connection (every reply line), and whether any was left open. */
function countSmtp(sockets: IdleSocket[], answers: AnswerCounts): void {
  for (const entry of sockets) {
    for (const line of entry.received.split('\r\n')) if (/^\d{3} /.test(line)) answers.add(smtpAnswer(line));
    if (!entry.closed) answers.add('SMTP still open at the end');
  }
}

/** What the server answered on each HTTP connection (its first status line), or how it ended without one. */
function countHttp(sockets: IdleSocket[], answers: AnswerCounts): void {
  for (const entry of sockets) {
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(entry.received)?.[1];
    if (status) answers.add(httpAnswer(Number(status), entry.received));
    else answers.add(entry.closed ? 'HTTP closed without an answer' : 'HTTP still open at the end');
  }
}

const heldOpen = (sockets: IdleSocket[]) => sockets.filter((entry) => !entry.closed).length;

/** Idle SMTP and HTTP connections from another loopback address, as many as it can up to the bound, held for the window. */
export function connectionFlood(options: AttackOptions, server: ServerPorts): Attack {
  return {
    async run(_attacker, answers) {
      const started = performance.now();
      const deadline = started + options.windowMs;
      const smtp: IdleSocket[] = [];
      const http: IdleSocket[] = [];
      await Promise.all([openIdle(server.smtpPort, options.floodConnections, deadline, smtp, answers), openIdle(server.httpPort, options.floodConnections, deadline, http, answers)]);
      const openedMs = performance.now() - started;
      await sleep(deadline - performance.now());
      const figures = {
        seconds_to_open: Number((openedMs / 1000).toFixed(2)),
        smtp: { connected: smtp.length, held_open_at_end: heldOpen(smtp) },
        http: { connected: http.length, held_open_at_end: heldOpen(http) },
      };
      countSmtp(smtp, answers);
      countHttp(http, answers);
      for (const entry of [...smtp, ...http]) entry.socket.destroy();
      return figures;
    },
  };
}

/** `count` loopback addresses from 127.0.0.`first` on (Linux answers all of 127/8 on lo). */
const loopbackAddresses = (first: number, count: number) => Array.from({ length: count }, (_, index) => `127.0.0.${first + index}`);

/**
 * The fewest addresses, and at least `atLeast` (the review's count), whose per-address caps add up to more than the
 * overall cap: each address then opens its own cap's worth, so the flood goes past the overall cap.
 */
export function floodPlan(max: number, perAddress: number, atLeast: number): { addresses: number; perAddress: number } {
  return { addresses: Math.max(atLeast, Math.floor(max / perAddress) + 1), perAddress };
}

/** Resolves when the connection closes or the deadline comes, whichever is first. */
function closedOrDeadline(entry: IdleSocket, deadline: number): Promise<void> {
  if (entry.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      entry.socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
    entry.socket.once('close', done);
  });
}

interface Held {
  /** Every connection made, renewals included. */
  sockets: IdleSocket[];
  /** From the start to the first connection of every slot. */
  openedMs: number;
  /** The most connections open at once on this side (a refused one counts until the server closes it). */
  peakConnected: number;
}

/**
 * Keeps `perAddress` connections open from each address until the deadline, the first ones opened OPENERS at a
 * time: a connection the server closes is opened again after RENEW_AFTER_MS, as a patient attacker renews what an
 * idle timeout or a refusal takes.
 */
async function holdFrom(port: number, addresses: string[], perAddress: number, greeting: string | null, deadline: number, answers: AnswerCounts): Promise<Held> {
  const RENEW_AFTER_MS = 1000;
  const started = performance.now();
  const sockets: IdleSocket[] = [];
  let open = 0;
  let peakConnected = 0;
  const connect = async (address: string) => {
    const entry = await connectIdle(port, address, greeting, answers);
    if (entry === null) return null;
    sockets.push(entry);
    if (!entry.closed) {
      peakConnected = Math.max(peakConnected, ++open);
      entry.socket.once('close', () => open--);
    }
    return entry;
  };
  const keep = async (address: string, first: IdleSocket | null) => {
    let entry = first;
    for (;;) {
      if (entry !== null) await closedOrDeadline(entry, deadline);
      if (!untilDeadline(deadline)) return;
      await sleep(Math.min(RENEW_AFTER_MS, deadline - performance.now()));
      if (!untilDeadline(deadline)) return;
      entry = await connect(address);
    }
  };
  const slots = addresses.flatMap((address) => Array.from({ length: perAddress }, () => address));
  let next = 0;
  const kept: Promise<void>[] = [];
  await Promise.all(
    Array.from({ length: OPENERS }, async () => {
      while (next < slots.length && untilDeadline(deadline)) {
        const address = slots[next++]!;
        kept.push(keep(address, await connect(address)));
      }
    }),
  );
  const openedMs = performance.now() - started;
  await Promise.all(kept);
  return { sockets, openedMs, peakConnected };
}

/**
 * Idle connections from a few addresses, sized past the server's overall caps: keep-alive HTTP connections that each
 * made one request (GET /livez) and then wait, and SMTP sessions that never authenticate, held (and renewed) for the
 * window.
 */
export function idleConnections(options: AttackOptions, server: ServerPorts): Attack {
  const HTTP_FIRST_ADDRESS = 70;
  const SMTP_FIRST_ADDRESS = 80;
  const { caps } = server;
  const httpPlan = floodPlan(caps.httpMax, caps.httpPerAddress, 8);
  const smtpPlan = floodPlan(caps.smtpMax, caps.smtpPerAddress, 10);
  return {
    async run(_attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const httpAddresses = loopbackAddresses(HTTP_FIRST_ADDRESS, httpPlan.addresses);
      const smtpAddresses = loopbackAddresses(SMTP_FIRST_ADDRESS, smtpPlan.addresses);
      const request = `GET /livez HTTP/1.1\r\nHost: 127.0.0.1:${server.httpPort}\r\nConnection: keep-alive\r\n\r\n`;
      const [http, smtp] = await Promise.all([
        holdFrom(server.httpPort, httpAddresses, httpPlan.perAddress, request, deadline, answers),
        holdFrom(server.smtpPort, smtpAddresses, smtpPlan.perAddress, null, deadline, answers),
      ]);
      const figures = {
        server_caps: { http: caps.httpMax, http_per_address: caps.httpPerAddress, smtp: caps.smtpMax, smtp_per_address: caps.smtpPerAddress },
        http: { addresses: `${httpAddresses[0]}-${httpAddresses.at(-1)}`, per_address: httpPlan.perAddress, wanted: httpPlan.addresses * httpPlan.perAddress, seconds_to_open: Number((http.openedMs / 1000).toFixed(2)), connections_made: http.sockets.length, peak_connected: http.peakConnected, held_open_at_end: heldOpen(http.sockets) },
        smtp: { addresses: `${smtpAddresses[0]}-${smtpAddresses.at(-1)}`, per_address: smtpPlan.perAddress, wanted: smtpPlan.addresses * smtpPlan.perAddress, seconds_to_open: Number((smtp.openedMs / 1000).toFixed(2)), connections_made: smtp.sockets.length, peak_connected: smtp.peakConnected, held_open_at_end: heldOpen(smtp.sockets) },
      };
      countSmtp(smtp.sockets, answers);
      countHttp(http.sockets, answers);
      for (const entry of [...smtp.sockets, ...http.sockets]) entry.socket.destroy();
      return figures;
    },
  };
}
