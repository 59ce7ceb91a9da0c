// Locates a worker thread's entry module beside the module that starts the thread.

/**
 * Compiled JavaScript when running from dist/, the TypeScript source when tests run the sources through tsx
 * (worker threads inherit tsx's loader with the process's execArgv).
 */
export const workerFile = (callerUrl: string, name: string): URL => new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
