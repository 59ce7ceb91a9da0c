// Runs the real admin CLI (built dist/) against a data dir, the way scripts do: JSON on stdout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { profileEnv } from './profile.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runAdmin(dataDir: string, args: string[], env: Record<string, string> = {}): CliResult {
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'dist/src/cli/admin.js'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir), ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command that must succeed and returns its parsed --json output. */
export function admin<T = Record<string, unknown>>(dataDir: string, args: string[], env: Record<string, string> = {}): T {
  const result = runAdmin(dataDir, [...args, '--json'], env);
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface CreatedWorkspace {
  workspace: { id: string; name: string };
  key: { id: string; key: string; access: string };
}

export const createWorkspace = (dataDir: string, name: string, plan?: string, env?: Record<string, string>): CreatedWorkspace =>
  admin<CreatedWorkspace>(dataDir, ['workspace', 'create', '--name', name, ...(plan ? ['--plan', plan] : [])], env);
