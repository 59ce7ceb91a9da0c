// Locates a worker thread's entry module beside the module that starts the thread.

/**
 * Compiled JavaScript when running from dist/, the TypeScript source when tests run the sources through tsx
 * (worker threads inherit tsx's loader with the process's execArgv).
 */
export const workerFile = (callerUrl: string, name: string): URL => new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);

/** The process's flags that say how modules load (tsx's hooks under tests); V8's flags are per process, and a Worker given them refuses to start. */
const MODULE_LOADING_FLAG = /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)(=|$)/;

function moduleLoadingFlags(argv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (!MODULE_LOADING_FLAG.test(argv[i]!)) continue;
    flags.push(argv[i]!);
    if (!argv[i]!.includes('=') && i + 1 < argv.length) flags.push(argv[(i += 1)]!);
  }
  return flags;
}

/**
 * The execArgv of piscina's threads. piscina loads a thread's module with require() first, which Node 20.19+ lets
 * load an ES module; that path has aborted the whole process with a native assertion (CreateRequiredModuleFacade)
 * when a pool was destroyed while a thread still loaded its module. Without require(esm) the require fails and
 * piscina imports the module instead.
 */
export const POOL_EXEC_ARGV: readonly string[] = [...moduleLoadingFlags(process.execArgv), '--no-experimental-require-module'];
