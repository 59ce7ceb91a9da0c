// Starts the real service (built dist/) as a child process on free ports in a temporary data dir.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { readJsonLogLines } from './json-log-lines.js';
import { pollUntil } from './poll.js';
import { profileEnv } from './profile.js';

export interface StartedServer {
  process: ChildProcess;
  dataDir: string;
  httpUrl: string;
  smtpPort: number;
  smtpsPort: number;
  /** The default workspace's key, printed on first start only. */
  defaultKey: string | null;
  /** Every log line printed so far, parsed. */
  logs: Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-test-'));
}

export interface ServerOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /**
   * A command the server is started under, such as `['prlimit', '--nofile=2048:2048', '--']`. It must exec the
   * server in its own place, so that the child's pid (for /proc readings and signals) is the server's.
   */
  wrapper?: string[];
  /** What starts the server instead of scripts/start, e.g. `['npx', '--no-install', 'mail-sandbox']`; run in `cwd`. */
  command?: string[];
  cwd?: string;
  /** The environment the server's is made from instead of this process's (the SANDBOX_* settings go on top). */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * Starts the command in a process group of its own and stops it by signalling the group, as a terminal's Ctrl-C or
   * a service manager does: a command such as npx that runs the server under processes of its own does not pass
   * a signal sent to it alone on.
   */
  processGroup?: boolean;
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startServer(options: ServerOptions = {}): Promise<StartedServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  // As `npm start` runs it (scripts/start execs node with the allocator settings the server is measured with).
  const [command, ...args] = [...(options.wrapper ?? []), ...(options.command ?? [path.join(PROJECT_ROOT, 'scripts/start')])];
  const child = spawn(command!, args, {
    cwd: options.cwd ?? PROJECT_ROOT,
    detached: options.processGroup === true,
    env: {
      ...(options.baseEnv ?? process.env),
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_HTTP_PORT: '0',
      SANDBOX_SMTP_PORT: '0',
      SANDBOX_SMTPS_PORT: '0',
      SANDBOX_BIND: '127.0.0.1',
      SANDBOX_SHUTDOWN_GRACE_MS: '3000',
      ...profileEnv(dataDir),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const outputEnded = new Promise((resolve) => child.stdout!.once('close', resolve));
  const ready = new Promise<{ httpUrl: string; smtpPort: number; smtpsPort: number; defaultKey: string | null }>((resolve, reject) => {
    let defaultKey: string | null = null;
    readJsonLogLines(child.stdout!, logs, (entry) => {
      if (typeof entry.api_key === 'string') defaultKey = entry.api_key;
      if (typeof entry.http_port === 'number') {
        resolve({ httpUrl: `http://127.0.0.1:${entry.http_port}`, smtpPort: entry.smtp_port as number, smtpsPort: entry.smtps_port as number, defaultKey });
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening: ${stderr}`)));
  });
  const info = await ready;
  return {
    process: child,
    dataDir,
    logs,
    ...info,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      if (!options.processGroup) {
        child.kill(signal);
        return exited;
      }
      process.kill(-child.pid!, signal);
      const code = await exited;
      // The command may end before the processes under it (npm does, of the signal), so the stop is over when the group is.
      await pollUntil(async () => !groupAlive(child.pid!), 30_000, `process group ${child.pid} to end`);
      await outputEnded;
      return code;
    },
  };
}
