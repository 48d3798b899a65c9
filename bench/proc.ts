import { readFile } from 'node:fs/promises';

/** Process figures read from /proc (Linux): what `npm run bench` reports beside latency. */

/** Clock ticks per second of /proc/{pid}/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/**
 * CPU time a process has spent so far in user space and in the kernel (socket writes and reads), in ms;
 * null where /proc cannot tell.
 */
export async function cpuTimesMs(pid: number | undefined): Promise<{ user: number; system: number } | null> {
  if (pid === undefined) return null;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    user: (Number(fields[11]) * 1000) / ticksPerSecond,
    system: (Number(fields[12]) * 1000) / ticksPerSecond,
  };
}

/** CPU time (user + system) a process has spent so far, in ms; null where /proc cannot tell. */
export async function cpuMs(pid: number | undefined): Promise<number | null> {
  const times = await cpuTimesMs(pid);
  return times === null ? null : times.user + times.system;
}

/** Resident memory of a process now (VmRSS) and at its peak so far (VmHWM), in MB; null where /proc cannot tell. */
export async function residentMb(pid: number | undefined): Promise<{ rss: number; peak: number } | null> {
  if (pid === undefined) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (name: string) => new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1];
  const rss = kb('VmRSS');
  const peak = kb('VmHWM');
  if (rss === undefined || peak === undefined) return null;
  return { rss: Math.round(Number(rss) / 1024), peak: Math.round(Number(peak) / 1024) };
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export async function peakRssMb(pid: number | undefined): Promise<number | null> {
  return (await residentMb(pid))?.peak ?? null;
}
