// `mail-sandbox serve`: runs the server (src/main.ts) with the allocator and young-generation settings scripts/start
// gives it, starting node again with them when this process was not started with them.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * scripts/start's settings (its comment gives the measurements): glibc reads its variables when a process starts,
 * and V8 its flags, so they can only be given to a new process. Values already set are kept.
 */
const ALLOCATOR_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;
const YOUNG_GENERATION_FLAG = '--max-semi-space-size=4';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

const hasSemiSpaceFlag = (): boolean =>
  process.execArgv.some((flag) => flag.includes('max-semi-space-size')) || (process.env.NODE_OPTIONS ?? '').includes('max-semi-space-size');

export async function serve(): Promise<void> {
  const missingEnv = Object.entries(ALLOCATOR_ENV).filter(([name]) => process.env[name] === undefined);
  if (missingEnv.length === 0 && hasSemiSpaceFlag()) {
    await import('../main.js');
    return;
  }
  // Node 20 cannot replace its own image (process.execve arrived in 22.15), so this process stays as the server's
  // parent: it hands every stop signal on and leaves with the server's outcome.
  const main = fileURLToPath(new URL(`../main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, ...(hasSemiSpaceFlag() ? [] : [YOUNG_GENERATION_FLAG]), main], {
    stdio: 'inherit',
    env: { ...process.env, ...Object.fromEntries(missingEnv) },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of SIGNALS) process.on(signal, forward);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (...outcome) => resolve(outcome));
  });
  for (const each of SIGNALS) process.off(each, forward);
  // A server killed by a signal is reported the same way: this process dies of it too.
  if (signal !== null) process.kill(process.pid, signal);
  else process.exitCode = code ?? 1;
}
