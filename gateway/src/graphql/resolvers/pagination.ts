import { badUserInput } from '../errors.js';

export const maxPageSize = 1000;

export function readLimit(limit: number | null | undefined): number {
  const value = limit ?? 100;
  if (!Number.isInteger(value) || value < 1 || value > maxPageSize) {
    throw badUserInput(`limit must be between 1 and ${maxPageSize}.`);
  }
  return value;
}

/** Cursors are opaque to clients: base64url of the offset, so they can change shape later. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): number {
  if (cursor === null || cursor === undefined) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { o?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0) return parsed.o;
  } catch {
    // falls through to the error below
  }
  throw badUserInput('cursor is not one this gateway gave out; pass page_info.next_cursor unchanged.');
}

export function page<T>(items: readonly T[], offset: number, limit: number) {
  return {
    objects: items.slice(offset, offset + limit),
    page_info: { next_cursor: offset + limit < items.length ? encodeCursor(offset + limit) : null },
  };
}
