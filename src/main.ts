// The process: reads configuration, runs the application, and turns signals into a graceful stop and outcomes into exit codes.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { createApplication } from './composition/application.js';

/** Exit codes: 0 stopped cleanly, 1 failed to start or forced out of shutdown, 2 invalid configuration. */
async function run(config: Readonly<Config>): Promise<void> {
  const log = createLogger(config.logLevel);
  const application = createApplication(config, { log, random: randomBytes });
  try {
    await application.listen();
  } catch (error) {
    await application.close().catch(() => undefined);
    throw error;
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: refusing new SMTP sessions, finishing messages in flight');
    const forced = setTimeout(() => {
      log.error('shutdown grace period over; exiting with work unfinished');
      process.exit(1);
    }, config.shutdownGraceMs + 10_000);
    forced.unref();
    await application.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

let config: Readonly<Config>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`mail-sandbox: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
run(config).catch((error: unknown) => {
  process.stderr.write(`mail-sandbox: failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
