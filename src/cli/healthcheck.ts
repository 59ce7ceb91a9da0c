// Container health check: asks a running server's /readyz and exits 0 when it is ready, 1 when it is not or does not answer.
// The server is found from the same SANDBOX_* variables it runs with (SANDBOX_HTTP_PORT, SANDBOX_BIND), or --url.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { HEALTHCHECK_USAGE } from './command-usage.js';

/** Longer than the server's own 2 s per probe, shorter than the 5 s orchestrators commonly allow a check. */
const ANSWER_TIMEOUT_MS = 4000;

/** A server bound to every interface is asked on loopback, which is one of them. */
function localUrl(): string {
  const config = loadConfig();
  const host = config.bind === '0.0.0.0' || config.bind === '::' ? '127.0.0.1' : config.bind;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.httpPort}`;
}

async function main(): Promise<number> {
  let base: string;
  try {
    const { values } = parseArgs({ options: { url: { type: 'string' } }, strict: true });
    base = values.url ?? localUrl();
  } catch (error) {
    process.stderr.write(`healthcheck: ${error instanceof ConfigError ? `invalid configuration: ${error.message}` : (error as Error).message}\n${HEALTHCHECK_USAGE}\n`);
    return 1;
  }
  try {
    const response = await fetch(new URL('/readyz', base), { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    process.stdout.write(`${(await response.text()).trim()}\n`);
    return response.status === 200 ? 0 : 1;
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    process.stderr.write(`healthcheck: no answer from ${base}/readyz (${cause})\n`);
    return 1;
  }
}

process.exitCode = await main();
