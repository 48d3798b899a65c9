import { describe, expect, it } from 'vitest';
import { memoryFlags } from './memory-flags.js';

describe('memoryFlags', () => {
  it("sets the old generation's growth and keeps WebAssembly on the baseline compiler by default", () => {
    expect(memoryFlags(['--max-semi-space-size=8'])).toEqual([
      '--heap-growing-percent=85',
      '--no-wasm-dynamic-tiering',
      '--no-wasm-tier-up',
    ]);
  });

  it('leaves the growth to a --heap-growing-percent given to node', () => {
    expect(memoryFlags(['--heap-growing-percent=0'])).toEqual([
      '--no-wasm-dynamic-tiering',
      '--no-wasm-tier-up',
    ]);
  });

  it('leaves WebAssembly tiering to a flag of that kind given to node', () => {
    for (const given of ['--wasm-dynamic-tiering', '--no-wasm-tier-up', '--wasm-tier-up']) {
      expect(memoryFlags([given])).toEqual(['--heap-growing-percent=85']);
    }
  });

  it("knows node's flags in V8's other spellings", () => {
    expect(memoryFlags(['--heap_growing_percent=50'])).toEqual([
      '--no-wasm-dynamic-tiering',
      '--no-wasm-tier-up',
    ]);
    for (const given of ['--no_wasm_tier_up', '--nowasm-tier-up', '--wasm_dynamic_tiering']) {
      expect(memoryFlags([given])).toEqual(['--heap-growing-percent=85']);
    }
  });

  it('does not take a flag of another name for one of its own', () => {
    expect(memoryFlags(['--wasm-tier-up-filter=3', '--heap-growing'])).toHaveLength(3);
  });
});
