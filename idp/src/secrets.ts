import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time. Hashing first gives equal-length inputs, so neither the content
 * nor the length of the expected secret leaks through timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
