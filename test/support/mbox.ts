// Generated mail in bulk: one mbox file of small distinct messages, and `admin import` to capture it into an inbox in
// one go (the browser suite's and bench:dashboard-inbox's 100,000-message inbox).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { profileEnv, testProfile } from './profile.js';
import type { StartedServer } from './server.js';

/** Writes `count` messages to an mbox at `file`, oldest first; message i has the subject `Bulk message <i>`. */
export async function writeMbox(file: string, count: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const start = Date.UTC(2026, 0, 1);
  for (let i = 1; i <= count; i++) {
    const sent = new Date(start + i * 60_000);
    const chunk = `From bulk@example.com ${sent.toUTCString()}\n`
      + `From: Bulk Sender <bulk${i % 50}@example.com>\nTo: qa@example.com\nSubject: Bulk message ${i}\n`
      + `Date: ${sent.toUTCString().replace('GMT', '+0000')}\nMessage-ID: <bulk-${i}@example.com>\n`
      + `MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nBody of bulk message ${i}.\n\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * Messages in the pipeline at once. The cluster profile waits for an Elasticsearch refresh per group of captures, so
 * more at once share each refresh: fewer refreshes, faster and with less of Elasticsearch's CPU.
 */
export const bulkImportConcurrency = () => (testProfile() === 'cluster' ? 512 : 32);

/**
 * `admin import` of one file into an inbox of the server's data dir, in a child process (the caller's event loop
 * keeps running); resolves to its JSON summary.
 */
export function importMbox(server: StartedServer, inboxId: string, file: string, concurrency: number): Promise<{ imported: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist/src/cli/admin.js'), 'import', '--inbox', inboxId, '--concurrency', String(concurrency), file, '--json'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SANDBOX_DATA_DIR: server.dataDir, ...profileEnv(server.dataDir) },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout) as { imported: number; seconds: number }) : reject(new Error(`admin import exited ${code}`))));
  });
}
