// Mailpit v1.33.1 on this machine, for the scripts that hold this service up against it (bench:vs-mailpit,
// conformance:mailpit): built once with `go install` into ~/.cache/mail-sandbox (outside the work tree), then started
// on loopback ports with a data dir of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../test/support/free-port.js';

export const MAILPIT_VERSION = 'v1.33.1';
const MAILPIT_DIR = path.join(os.homedir(), '.cache', 'mail-sandbox', `mailpit-${MAILPIT_VERSION}`);
const MAILPIT_BINARY = path.join(MAILPIT_DIR, 'mailpit');
const READY_TIMEOUT_MS = 30_000;

/** Builds the Mailpit binary once; later runs find it in the cache. `progress` hears what takes long. */
export function ensureMailpit(progress: (line: string) => void): string {
  if (fs.existsSync(MAILPIT_BINARY)) return MAILPIT_BINARY;
  progress(`building Mailpit ${MAILPIT_VERSION} into ${MAILPIT_DIR} (once; a few minutes)`);
  const built = spawnSync('go', ['install', `github.com/axllent/mailpit@${MAILPIT_VERSION}`], {
    env: { ...process.env, GOBIN: MAILPIT_DIR },
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0 || !fs.existsSync(MAILPIT_BINARY)) throw new Error(`go install of Mailpit ${MAILPIT_VERSION} failed (${built.error?.message ?? `exit ${built.status}`})`);
  return MAILPIT_BINARY;
}

async function waitUntil(what: string, ready: () => Promise<boolean>, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await ready().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Mailpit {
  process: ChildProcess;
  dir: string;
  httpUrl: string;
  smtpPort: number;
  stop(): Promise<void>;
}

/** Starts Mailpit with `options` after the loopback ports, its database and the offline settings. */
export async function startMailpit(binary: string, options: string[] = []): Promise<Mailpit> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-mailpit-'));
  const [httpPort, smtpPort] = [await freePort(), await freePort()];
  const logFile = path.join(dir, 'mailpit.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    binary,
    [
      '--listen', `127.0.0.1:${httpPort}`,
      '--smtp', `127.0.0.1:${smtpPort}`,
      '--database', path.join(dir, 'mailpit.db'),
      '--max', '0',
      '--smtp-disable-rdns',
      // No internet here; the web UI would otherwise ask GitHub for newer releases.
      '--disable-version-check',
      ...options,
    ],
    // Its log goes to a file, so neither a full pipe nor this process's reading of it affects what is measured.
    { stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const mailpit: Mailpit = {
    process: child,
    dir,
    httpUrl,
    smtpPort,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntil('Mailpit HTTP', async () => (await fetch(`${httpUrl}/readyz`)).status === 200, child);
    // SMTP starts beside HTTP, not before it; the first client must not meet a refused connection.
    await waitUntil('Mailpit SMTP', () => canConnect(smtpPort), child);
  } catch (error) {
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
    await mailpit.stop();
    throw new Error(`${(error as Error).message}\n${tail}`, { cause: error });
  }
  return mailpit;
}
