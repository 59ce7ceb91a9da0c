// The server logs JSON lines on stdout: each one is kept in `logs` as it comes and handed to `onEntry`; a line that is
// not JSON (a stray print) is skipped.
import readline from 'node:readline';
import type { Readable } from 'node:stream';

export type LogEntry = Record<string, unknown>;

export function readJsonLogLines(stream: Readable, logs: LogEntry[], onEntry: (entry: LogEntry) => void): void {
  readline.createInterface({ input: stream }).on('line', (line) => {
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      return;
    }
    logs.push(entry);
    onEntry(entry);
  });
}
