// Running podman from tests, with the settings this machine kind needs (scripts/container/containers.conf, runc).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';

export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF: path.join(PROJECT_ROOT, 'scripts/container/containers.conf') };

export interface Finished {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a command to its end, collecting its output; `input` is piped to its stdin. */
export function run(command: string, args: string[], options: { input?: Buffer | string; cwd?: string } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? PROJECT_ROOT, env: PODMAN_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** `podman <args>`; fails with podman's stderr unless it exits 0. Returns stdout, trimmed. */
export async function podman(...args: string[]): Promise<string> {
  const result = await run('podman', args);
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.status}: ${result.stderr.trim().slice(-2000)}`);
  return result.stdout.toString().trim();
}

/** `podman <args>` left running (an attached `run` or `start -a`), its stdout and stderr piped to the caller. */
export function podmanAttached(...args: string[]): ChildProcess {
  return spawn('podman', args, { cwd: PROJECT_ROOT, env: PODMAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}
