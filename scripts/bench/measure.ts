// What every bench needs: flag parsing, percentiles, rounding for printing, the server's resident memory, the bytes a
// data dir holds and how busy the machine was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1, got '${raw}'`);
  return value;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** VmRSS of a process, in kB. */
export function rssKb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}

/** CPU time (user + system, all threads) a process has used so far, in ms; from /proc, so for any process. */
export function processCpuMs(pid: number): number {
  return cpuMsOf(`/proc/${pid}/stat`);
}

/** CPU time (user + system) one thread of a process has used so far, in ms: the main thread's id is the process's. */
export function threadCpuMs(pid: number, tid: number): number {
  return cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
}

function cpuMsOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  // The command name (field 2) may hold spaces; from the state (field 3) on, fields are split by single spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[14 - 3]) + Number(fields[15 - 3])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Reads a process's VmRSS every `intervalMs` until stopped, for the peak a single reading at the end would miss. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = rssKb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, intervalMs);
  return {
    /** Stops sampling and answers the peak, in kB. */
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssKb(pid));
    },
  };
}

/** The 1-minute load average now; printed at a bench's start and end, since other work on the machine skews every figure. */
export const loadAverage = () => round(os.loadavg()[0]!);

/** Bytes of every file under `dir`, however deep. */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(full) : fs.statSync(full).size;
  }
  return total;
}
