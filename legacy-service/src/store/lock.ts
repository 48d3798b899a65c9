import { randomUUID } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { dataFileMode } from './files.js';

export const lockFile = 'LOCK';

interface LockHolder {
  pid: number;
  host: string;
  /** When the holding process started: tells this process apart from an earlier one that had the same pid. */
  started: number;
  token: string;
}

export interface DataFolderLock {
  release(): Promise<void>;
}

/**
 * Takes the data folder's LOCK file so that no other process (or second Store in this one) writes the
 * same journal. A lock whose process is gone is taken over.
 */
export async function acquireLock(dir: string): Promise<DataFolderLock> {
  const path = join(dir, lockFile);
  const self: LockHolder = {
    pid: process.pid,
    host: hostname(),
    started: performance.timeOrigin,
    token: randomUUID(),
  };
  // Written in full under a private name and then linked, so LOCK never exists half-written.
  const candidate = join(dir, `${lockFile}.${self.pid}.${self.token}.tmp`);
  await writeFile(candidate, JSON.stringify(self) + '\n', { flag: 'wx', mode: dataFileMode });
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await link(candidate, path);
        return { release: () => releaseLock(path, self.token) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readHolder(path);
      if (holder === 'vanished') continue;
      if (holder !== 'unreadable' && isHeld(holder)) throw lockedError(dir, path, holder);
      await rm(path, { force: true });
    }
  } finally {
    await rm(candidate, { force: true });
  }
  throw new StoreError(
    'STORE_LOCKED',
    `Data folder ${dir} is being locked and unlocked by other processes; try again`,
  );
}

/** 'vanished': released meanwhile, so linking again may succeed; 'unreadable': no live holder can be named. */
async function readHolder(path: string): Promise<LockHolder | 'vanished' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'vanished';
    throw error;
  }
  try {
    const { pid, host, started, token } = (JSON.parse(text) ?? {}) as Partial<LockHolder>;
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return 'unreadable';
    if (typeof host !== 'string' || typeof started !== 'number' || typeof token !== 'string')
      return 'unreadable';
    return { pid, host, started, token };
  } catch {
    // Live holders link a complete file, so an unparsable one can only be left over from a crash.
    return 'unreadable';
  }
}

function isHeld(holder: LockHolder): boolean {
  // A process on another host cannot be checked, so its lock is respected.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return holder.started === performance.timeOrigin;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(dir: string, path: string, holder: LockHolder): StoreError {
  const who =
    holder.pid === process.pid && holder.host === hostname()
      ? 'this process (close the other Store first)'
      : `process ${holder.pid} on ${holder.host}`;
  return new StoreError(
    'STORE_LOCKED',
    `Data folder ${dir} is already open in ${who}. Only one Store may use a data folder; ` +
      `if that process is certainly gone, delete ${path}.`,
  );
}

async function releaseLock(path: string, token: string): Promise<void> {
  const holder = await readHolder(path);
  // Only our own lock is removed: after a takeover the file belongs to someone else.
  if (typeof holder === 'object' && holder.token === token) await rm(path, { force: true });
}
