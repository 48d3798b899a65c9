import { open } from 'node:fs/promises';

export interface FileLine {
  /** 1-based line number, for error messages. */
  number: number;
  /** Byte offset of the line's first byte, so a torn tail can be truncated exactly. */
  offset: number;
  text: string;
  /** False only for a last line without its newline: an append that did not finish. */
  terminated: boolean;
}

const newline = 0x0a;
const chunkSize = 1 << 20;

/** Reads a file line by line in fixed-size chunks, so a large snapshot never becomes one giant string. */
export async function* readLines(path: string): AsyncGenerator<FileLine> {
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkSize);
    // Bytes of the current, not yet terminated line that arrived in earlier chunks.
    let carried: Buffer[] = [];
    let carriedLength = 0;
    let lineOffset = 0;
    let number = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, null);
      if (bytesRead === 0) break;
      let start = 0;
      for (
        let end = chunk.indexOf(newline, 0);
        end !== -1 && end < bytesRead;
        end = chunk.indexOf(newline, start)
      ) {
        const bytes =
          carriedLength === 0
            ? chunk.subarray(start, end)
            : Buffer.concat([...carried, chunk.subarray(start, end)]);
        number += 1;
        yield { number, offset: lineOffset, text: bytes.toString('utf8'), terminated: true };
        lineOffset += carriedLength + (end - start) + 1;
        carried = [];
        carriedLength = 0;
        start = end + 1;
      }
      if (start < bytesRead) {
        // Copied because `chunk` is reused by the next read.
        carried.push(Buffer.from(chunk.subarray(start, bytesRead)));
        carriedLength += bytesRead - start;
      }
    }
    if (carriedLength > 0) {
      yield {
        number: number + 1,
        offset: lineOffset,
        text: Buffer.concat(carried).toString('utf8'),
        terminated: false,
      };
    }
  } finally {
    await handle.close();
  }
}
