// Runs `admin import` against a started server's data (any profile) the way an operator would, and measures it: rate,
// the CPU time the import process and each local storage service spent per message, and the import's peak RSS.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { profileEnv } from '../../test/support/profile.js';
import type { StartedServer } from '../../test/support/server.js';
import { processCpuMs, round, rssKb } from './measure.js';

export interface ImportSummaryJson {
  imported: number;
  refused: { source: string; code: string; message: string }[];
  skipped: { source: string; reason: string }[];
  seconds: number;
  messages_per_second: number;
}

/** The storage services of the cluster profile, when they run on this machine: their CPU is part of an import's cost. */
function localServices(): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const name = command.includes('org.elasticsearch.bootstrap.Elasticsearch') ? 'elasticsearch'
        : /(^|\/)minio\0server\0/.test(command) ? 'minio'
          : /(^|\/)redis-server\0/.test(command) || /(^|\/)redis-server /.test(command) ? 'redis' : null;
      if (name && !found.has(name)) found.set(name, Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

const cpuOf = (pids: Map<string, number>) => new Map([...pids].map(([name, pid]) => [name, processCpuMs(pid)]));

export interface AdminImportRun {
  summary: ImportSummaryJson;
  /** Wall time from spawn to exit, start-up included. */
  seconds: number;
  messagesPerSecond: number;
  /** CPU ms per imported message: the import process (all its threads), the server, and each local storage service. */
  cpuMsPerMessage: Record<string, number>;
  importPeakRssMb: number;
}

/**
 * `admin import --json` of `files` into `inboxId`, in a child process, with the server's data dir and profile. CPU is read
 * from /proc while the child runs (the last reading is at most `sampleMs` before it exits).
 */
export async function runAdminImport(server: StartedServer, inboxId: string, files: string[], options: { args?: string[]; env?: Record<string, string>; onProgress?: (line: string) => void; sampleMs?: number } = {}): Promise<AdminImportRun> {
  const services = server.process.pid === undefined ? new Map<string, number>() : new Map([...localServices(), ['server', server.process.pid]]);
  const before = cpuOf(services);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist/src/cli/admin.js'), 'import', '--inbox', inboxId, ...(options.args ?? []), ...files, '--json'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SANDBOX_DATA_DIR: server.dataDir, ...profileEnv(server.dataDir), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let importCpuMs = 0;
  let peakRssKb = 0;
  const sample = () => {
    try {
      importCpuMs = processCpuMs(child.pid!);
      peakRssKb = Math.max(peakRssKb, rssKb(child.pid!));
    } catch {
      // Exited between the check and the read: the previous reading stands.
    }
  };
  const sampler = setInterval(sample, options.sampleMs ?? 100);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const lines = stderr.split('\n');
    stderr = lines.pop()!;
    for (const line of lines) options.onProgress?.(line);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`admin import exited ${code}: ${stderr}`);
  const after = cpuOf(services);
  const summary = JSON.parse(stdout) as ImportSummaryJson;
  const perMessage = (ms: number) => (summary.imported > 0 ? round(ms / summary.imported, 3) : 0);
  const cpuMsPerMessage: Record<string, number> = { import: perMessage(importCpuMs) };
  for (const [name, ms] of after) cpuMsPerMessage[name] = perMessage(ms - before.get(name)!);
  cpuMsPerMessage.total = round(Object.values(cpuMsPerMessage).reduce((sum, ms) => sum + ms, 0), 3);
  return { summary, seconds: round(seconds, 2), messagesPerSecond: round(summary.imported / seconds, 1), cpuMsPerMessage, importPeakRssMb: round(peakRssKb / 1024, 1) };
}
