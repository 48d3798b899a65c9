/**
 * The V8 flags the gateway sets on itself at start, for memory (docs/operations.md, "Memory"). They are read
 * when V8 next needs them (each full collection; each later WebAssembly compilation, and undici compiles its
 * parser on the first connection), so `main.ts` can set them whichever way the gateway was started; each is
 * left out when node was given a flag of its own kind, in any of V8's spellings.
 */

/**
 * How far V8 lets the old generation grow past what the last full collection kept: 1.85× instead of V8's
 * own factor, which it raises up to 4× for a process that allocates fast. Under the bench the gateway keeps
 * about 32 MB alive, yet its old space filled with 60–90 MB of garbage between collections. Measured with
 * `npx tsx bench/memory-profile.ts` (reference query and `/service` read, concurrency 8): peak resident
 * memory 233–243 MB with V8's factor, 187–194 MB with 100 %, for 3–4 % more CPU per reference query and
 * none per read; 50 % gave 166–187 MB but cost 4–27 % more CPU per query. With the rest of the memory work
 * (the WebAssembly flags below, versions made on first use), two paired runs gave 147–149 MB at 85 % against
 * 154 MB at 100 %, with CPU per query and per read within the runs' noise (1.64/1.92 against 1.73/1.91 ms).
 * The factor is read at each collection, so it can be set here, whichever way the gateway is started; a
 * `--heap-growing-percent` given to node wins (`--heap-growing-percent=0` restores V8's own factor).
 */
const heapGrowingPercent = 85;

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, and V8 recompiles its one large parser function
 * with its optimising compiler once it is hot: that compilation alone takes 30–45 MB of memory on a
 * background thread for a moment, twice (the legacy pool's undici and Node's own for `fetch`), and it was
 * the gateway's peak resident memory. Kept on V8's baseline compiler, the parser costs a few microseconds
 * more per legacy response. Measured with `npx tsx bench/memory-phases.ts` and `bench/memory-profile.ts`
 * (see docs/operations.md); the flags are read when the parser is first compiled, on the first legacy call,
 * so they can be set here. A `--wasm-dynamic-tiering` given to node wins.
 */
const wasmTiering = new Set(['wasm-dynamic-tiering', 'wasm-tier-up']);

/**
 * The V8 flag an argument names, as V8 reads it: `_` and `-` alike, a `no` prefix with or without its dash
 * (`--heap_growing_percent=50`, `--nowasm-tier-up` and `--no-wasm-tier-up` name two flags); null for anything
 * that is not a flag.
 */
function flagName(argument: string): string | null {
  const name = /^--?([^=]+)/.exec(argument)?.[1]?.replaceAll('_', '-');
  if (name === undefined) return null;
  return name.replace(/^no-?/, '');
}

/** The flags to set, given node's own arguments (`process.execArgv`): a flag given to node wins. */
export function memoryFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map(flagName));
  const flags: string[] = [];
  if (!given.has('heap-growing-percent')) flags.push(`--heap-growing-percent=${heapGrowingPercent}`);
  if (![...wasmTiering].some((name) => given.has(name))) {
    flags.push('--no-wasm-dynamic-tiering', '--no-wasm-tier-up');
  }
  return flags;
}
