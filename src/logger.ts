// The process logger: JSON lines on stdout (pino), level from configuration.
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'mail-sandbox' }, timestamp: pino.stdTimeFunctions.isoTime });
}
