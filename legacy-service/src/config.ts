import { fileURLToPath } from 'node:url';

export interface LegacyConfig {
  host: string;
  port: number;
  dataDir: string;
  latencyMs: number;
}

const defaultDataDir = fileURLToPath(new URL('../../data/legacy', import.meta.url));

function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new Error(`${name} must be an integer between 0 and ${max}, got "${raw}".`);
  }
  return value;
}

/** Reads the legacy service's environment; a bad value stops the start with a message naming it. */
export function readLegacyConfig(env: NodeJS.ProcessEnv = process.env): LegacyConfig {
  return {
    host: env.LEGACY_HOST || '127.0.0.1',
    port: readInteger(env, 'LEGACY_PORT', 8082, 65535),
    dataDir: env.LEGACY_DATA_DIR || defaultDataDir,
    latencyMs: readInteger(env, 'LEGACY_LATENCY_MS', 0, 60_000),
  };
}
