import { describe, expect, it } from 'vitest';
import { detectEncoding, pythonJsonLoads, unquote } from './uvicorn-like-backend.js';

/**
 * The stand-in reads as CPython does. The encodings are the cases of CPython's
 * `Lib/test/test_json/test_unicode.py` (`test_bytes_decode`: each UTF flavour with and without a BOM),
 * the numbers those of `test_float.py` (`test_allow_nan`), ported as our own.
 */
const encode = (text: string, encoding: string): Buffer => {
  const bom = encoding.endsWith('-bom');
  const name = encoding.replace('-bom', '');
  const body = bom ? `\uFEFF${text}` : text;
  if (name === 'utf-8') return Buffer.from(body, 'utf8');
  if (name === 'utf-16le') return Buffer.from(body, 'utf16le');
  if (name === 'utf-16be') return Buffer.from(body, 'utf16le').swap16();
  const out = Buffer.alloc([...body].length * 4);
  [...body].forEach((char, index) =>
    name === 'utf-32le'
      ? out.writeUInt32LE(char.codePointAt(0)!, index * 4)
      : out.writeUInt32BE(char.codePointAt(0)!, index * 4),
  );
  return out;
};

describe('the uvicorn-like stand-in', () => {
  it.each([
    ['utf-8', 'utf-8'],
    ['utf-8-bom', 'utf-8-sig'],
    ['utf-16le', 'utf-16-le'],
    ['utf-16le-bom', 'utf-16'],
    ['utf-16be', 'utf-16-be'],
    ['utf-16be-bom', 'utf-16'],
    ['utf-32le', 'utf-32-le'],
    ['utf-32le-bom', 'utf-32'],
    ['utf-32be', 'utf-32-be'],
    ['utf-32be-bom', 'utf-32'],
  ])('reads %s as json.loads does', (encoding, detected) => {
    const bytes = encode('["\u00e6\u20ac", {"a": 1}]', encoding);
    expect(detectEncoding(bytes)).toBe(detected);
    expect(pythonJsonLoads(bytes)).toEqual(['æ€', { a: 1 }]);
  });

  it('reads NaN and ±Infinity as numbers, outside strings only', () => {
    expect(pythonJsonLoads(Buffer.from('[NaN, Infinity, -Infinity, "NaN", "a\\"NaN"]'))).toEqual([
      Number.NaN,
      Infinity,
      -Infinity,
      'NaN',
      'a"NaN',
    ]);
    expect(() => pythonJsonLoads(Buffer.from('[nan]'))).toThrow();
  });

  it('unquotes a path once, as urllib.parse.unquote', () => {
    expect(unquote('/service/e%2Fcpr_lookup/')).toBe('/service/e/cpr_lookup/');
    expect(unquote('/service/e%252F/')).toBe('/service/e%2F/');
    expect(unquote('/f/%C3%A6%zz%')).toBe('/f/æ%zz%');
    expect(unquote('/f/%C3')).toBe('/f/\uFFFD');
  });
});
