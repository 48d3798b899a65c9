import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';

/**
 * Modes of what the store creates: the journal and snapshots hold every CPR number, so only the service's
 * own user may read them (the process umask can only narrow these further).
 */
export const dataFileMode = 0o600;
export const dataFolderMode = 0o700;

/** Writes every byte, looping because write(2) may legally write fewer bytes than asked. */
export async function writeAll(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Makes created, renamed or removed directory entries durable; Windows cannot open a directory for this. */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
