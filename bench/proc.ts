import { readFile } from 'node:fs/promises';

/** Process figures read from /proc (Linux): what `npm run bench` reports beside latency. */

/** Clock ticks per second of /proc/{pid}/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** CPU time (user + system) a process has spent so far, in ms; null where /proc cannot tell. */
export async function cpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export async function peakRssMb(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : null;
}
