// The process logger: JSON lines on stdout (pino), or on another stream such as a CLI's stderr; level from configuration.
import { pino, type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'mail-sandbox' }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options);
}
