/**
 * JSON read one way only: UTF-8 bytes, no byte order mark, every string well formed, no member twice.
 * Anything else has a reading another parser may differ on. Python's `json.loads` (OS2mo's) takes
 * `NaN` and `Infinity`, and UTF-16 or UTF-32 detected from the first bytes (`json.detect_encoding`); a
 * parser may keep the first of two equal members or the last. A body refused here cannot mean one thing
 * to the gateway and another to the backend.
 */

export type StrictJson = { ok: true; value: unknown } | { ok: false; problem: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What the first bytes say the text is, when they say it is not plain UTF-8. */
function encodingProblem(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'it starts with a UTF-8 byte order mark';
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0xff && b1 === 0xfe)) {
    return 'it starts with a UTF-16 or UTF-32 byte order mark';
  }
  // JSON text never has a NUL among its first bytes; Python reads such a body as UTF-16 or UTF-32.
  for (let index = 0; index < Math.min(4, bytes.length); index += 1) {
    if (bytes[index] === 0) return 'it looks like UTF-16 or UTF-32 (a NUL byte among the first four)';
  }
  return undefined;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where the string that opens at `start` closes: the next `"` not escaped by an odd run of backslashes. */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/**
 * Walks the text once (it is valid JSON by now) for what `JSON.parse` lets through: a member named twice in
 * one object (compared decoded, so `"a"` and `"\u0061"` are the same) and a string with an unpaired
 * surrogate escape. Valid UTF-8 holds no surrogate, so only strings with a `\u` escape are decoded.
 */
function structureProblem(text: string): string | undefined {
  // One entry per open container: the member names of an object, or null for an array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  // The next backslash at or after the walk, found again only once passed: one scan of the text in all.
  let nextSlash = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x7b) {
      open.push(new Set());
      expectKey = true;
    } else if (code === 0x5b) {
      open.push(null);
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
    } else if (code === 0x2c) {
      expectKey = open[open.length - 1] instanceof Set;
    } else if (code === 0x22) {
      const end = closingQuote(text, index);
      if (nextSlash !== Infinity && nextSlash < index) {
        const found = text.indexOf('\\', index);
        nextSlash = found === -1 ? Infinity : found;
      }
      const escaped = nextSlash < end;
      if (escaped || expectKey) {
        const raw = text.slice(index, end + 1);
        const value = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (escaped && raw.includes('\\u') && loneSurrogate.test(value)) {
          return 'a string holds an unpaired UTF-16 surrogate';
        }
        if (expectKey) {
          const names = open[open.length - 1]!;
          if (names.has(value)) return `the member "${value}" appears twice in one object`;
          names.add(value);
          expectKey = false;
        }
      }
      index = end;
    }
  }
  return undefined;
}

/** The problem `JSON.parse` found, in words a client can act on. */
function syntaxProblem(text: string, error: unknown): string {
  // Python's extensions, outside strings: say what they are rather than where the parser stopped.
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/(?:^|[\s,:[])-?(?:NaN|Infinity)\b/.test(outsideStrings)) {
    return 'NaN and Infinity are not JSON numbers';
  }
  // V8's message quotes the text around the fault; the client's own data is not repeated back or logged.
  const position = error instanceof SyntaxError ? /position (\d+)/.exec(error.message)?.[1] : undefined;
  return position === undefined ? 'it is not JSON' : `it is not JSON (at character ${position})`;
}

/**
 * The value of `bytes` when they are strict JSON (see above), or why not.
 *
 * @example
 * const parsed = parseStrictJson(bytes);
 * if (!parsed.ok) throw badBody(parsed.problem);
 */
export function parseStrictJson(bytes: Uint8Array): StrictJson {
  const encoding = encodingProblem(bytes);
  if (encoding) return { ok: false, problem: encoding };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: 'it is not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: syntaxProblem(text, error) };
  }
  const structure = structureProblem(text);
  return structure ? { ok: false, problem: structure } : { ok: true, value };
}
