// What /proc says of a process: its resident memory and its children, for tests that bound a server's memory.
import fs from 'node:fs';

const statusField = (pid: number, field: string): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) / 1024;
};

/** The process's peak resident memory since it started, in MB (VmHWM). */
export const peakResidentMb = (pid: number): number => statusField(pid, 'VmHWM');

/** The pids of the process's children whose command line includes `marker`, until each is gone (reaped). */
export function childProcesses(parentPid: number, marker: string): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold anything; the state and the parent's pid follow it.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) !== parentPid) continue;
      // A zombie's command line reads empty: one of node or sh, not yet reaped, may be one of them.
      const matches = state === 'Z' ? name === 'node' || name === 'sh' : fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker);
      if (matches) children.push(Number(entry));
    } catch {
      // The process ended while it was being read.
    }
  }
  return children;
}
