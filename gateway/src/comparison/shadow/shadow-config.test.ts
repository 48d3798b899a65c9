import { describe, expect, it } from 'vitest';
import { ConfigError, readGatewayConfig } from '../../config.js';

describe('readGatewayConfig: shadow comparison', () => {
  it('is off by default, keeps 50 mismatches, and is bounded', () => {
    expect(readGatewayConfig({}).shadow).toEqual({
      sampleRate: 0,
      keep: 50,
      queueSize: 100,
      concurrency: 2,
      maxBodyBytes: 1024 * 1024,
      timeoutMs: 10_000,
    });
  });

  it('reads the SHADOW_ variables', () => {
    expect(
      readGatewayConfig({
        SHADOW_SAMPLE_RATE: '0.05',
        SHADOW_KEEP: '10',
        SHADOW_QUEUE_SIZE: '5',
        SHADOW_CONCURRENCY: '1',
        SHADOW_MAX_BODY_BYTES: '65536',
        SHADOW_TIMEOUT_MS: '2000',
      }).shadow,
    ).toEqual({
      sampleRate: 0.05,
      keep: 10,
      queueSize: 5,
      concurrency: 1,
      maxBodyBytes: 65536,
      timeoutMs: 2000,
    });
    expect(readGatewayConfig({ SHADOW_SAMPLE_RATE: '1' }).shadow.sampleRate).toBe(1);
  });

  it.each([
    ['SHADOW_SAMPLE_RATE', '1.5'],
    ['SHADOW_SAMPLE_RATE', '-0.1'],
    ['SHADOW_SAMPLE_RATE', '5%'],
    ['SHADOW_SAMPLE_RATE', 'Infinity'],
    ['SHADOW_KEEP', 'many'],
    ['SHADOW_CONCURRENCY', '0'],
    ['SHADOW_QUEUE_SIZE', '-1'],
    ['SHADOW_MAX_BODY_BYTES', '10'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => readGatewayConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readGatewayConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });
});
