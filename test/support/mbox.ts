// Generated mail in bulk: one mbox file of small distinct messages, newest last, for `admin import` to load an inbox
// with many messages in one go (the browser and bench suites' 100,000-message inbox).
import fs from 'node:fs';
import { once } from 'node:events';

/** Writes `count` messages to an mbox at `file`; message i has the subject `Bulk message <i>` and a distinct body. */
export async function writeMbox(file: string, count: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const start = Date.UTC(2026, 0, 1);
  for (let i = 1; i <= count; i++) {
    const date = new Date(start + i * 60_000).toUTCString().replace('GMT', '+0000');
    const chunk = `From bulk@example.com ${new Date(start + i * 60_000).toUTCString()}\n`
      + `From: Bulk Sender <bulk${i % 50}@example.com>\nTo: qa@example.com\nSubject: Bulk message ${i}\nDate: ${date}\n`
      + `Message-ID: <bulk-${i}@example.com>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n`
      + `Body of bulk message ${i}.\n\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
