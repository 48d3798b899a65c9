import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strict-json.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const utf32le = (text: string) => {
  const out = Buffer.alloc(text.length * 4);
  [...text].forEach((char, index) => out.writeUInt32LE(char.codePointAt(0)!, index * 4));
  return out;
};

describe('parseStrictJson', () => {
  it('reads UTF-8 JSON as JSON.parse does', () => {
    const text = '{"validity": {"from": "2027-01-01"}, "name": "Økonomi ✓", "n": [1, 2.5, -3e2]}';
    expect(parseStrictJson(bytes(text))).toEqual({ ok: true, value: JSON.parse(text) });
    expect(parseStrictJson(bytes('[]'))).toEqual({ ok: true, value: [] });
    // A pair of surrogate escapes is one character, and well formed.
    expect(parseStrictJson(bytes('"\\ud83d\\ude00"'))).toEqual({ ok: true, value: '😀' });
  });

  // Python's json.loads accepts every one of these (json/decoder.py, json/__init__.py detect_encoding).
  it.each([
    ['NaN', '{"validity": {"to": "2027-01-01"}, "x": NaN}', 'NaN and Infinity'],
    ['Infinity', '{"x": Infinity}', 'NaN and Infinity'],
    ['-Infinity', '[-Infinity]', 'NaN and Infinity'],
  ])('refuses %s', (_name, text, problem) => {
    const parsed = parseStrictJson(bytes(text));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok || parsed.problem).toContain(problem);
  });

  it('does not mistake NaN inside a string for a number', () => {
    expect(parseStrictJson(bytes('{"name": "NaN"}'))).toEqual({ ok: true, value: { name: 'NaN' } });
    const parsed = parseStrictJson(bytes('{"name": "NaN" x}'));
    expect(parsed.ok || parsed.problem).not.toContain('NaN and Infinity');
  });

  it.each([
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{}')]), 'byte order mark'],
    ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('{}')]), 'byte order mark'],
    ['UTF-16BE with a BOM', Buffer.from([0xfe, 0xff, 0, 0x7b, 0, 0x7d]), 'byte order mark'],
    ['UTF-16LE without a BOM', utf16le('{"a": 1}'), 'UTF-16 or UTF-32'],
    ['UTF-16BE without a BOM', Buffer.from([0, 0x5b, 0, 0x5d]), 'UTF-16 or UTF-32'],
    ['UTF-32LE without a BOM', utf32le('{}'), 'UTF-16 or UTF-32'],
    ['a surrogate encoded in UTF-8 (CESU)', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), 'not valid UTF-8'],
    ['Latin-1', Buffer.from([0x22, 0xe6, 0x22]), 'not valid UTF-8'],
  ])('refuses %s', (_name, body, problem) => {
    const parsed = parseStrictJson(body);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok || parsed.problem).toContain(problem);
  });

  it.each([
    ['a lone high surrogate', '{"name": "a\\ud800"}'],
    ['a lone low surrogate', '["\\udc00b"]'],
    ['two high surrogates', '"\\ud800\\ud800"'],
    ['a lone surrogate in a member name', '{"\\udfff": 1}'],
  ])('refuses %s', (_name, text) => {
    expect(parseStrictJson(bytes(text))).toEqual({
      ok: false,
      problem: 'a string holds an unpaired UTF-16 surrogate',
    });
  });

  it('refuses a member named twice in one object, however it is spelt', () => {
    expect(parseStrictJson(bytes('{"uuid": "a", "uuid": "b"}'))).toEqual({
      ok: false,
      problem: 'the member "uuid" appears twice in one object',
    });
    expect(parseStrictJson(bytes('{"a": {"org_unit": 1, "\\u006frg_unit": 2}}'))).toMatchObject({
      ok: false,
    });
    // Escaped quotes and backslashes end no string early.
    expect(parseStrictJson(bytes('{"a\\"b": 1, "c\\\\": "\\"", "a\\"b": 2}'))).toEqual({
      ok: false,
      problem: 'the member "a"b" appears twice in one object',
    });
    // The same name in different objects, or as a value, is no repeat.
    const text = '[{"a": "a", "b": ["a", {"a": 1}]}, {"a": 2}]';
    expect(parseStrictJson(bytes(text))).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('refuses what is not JSON at all', () => {
    for (const text of ['', '{', "{'a': 1}", '{"a": 1,}', '01', '"\t"']) {
      expect(parseStrictJson(bytes(text)).ok, text).toBe(false);
    }
  });
});
