import { spawn, type ChildProcess } from 'node:child_process';

/**
 * `npm test`: the static checks (`npm run checks`: the linters and the type check) and Vitest side by side.
 * Vitest's workers wait on servers and processes a good part of the time, and the checks fill those gaps: on
 * two cores beside other work the two together took less time than one after the other. Vitest prints as it
 * goes; the checks' output is printed whole when they end, so it never interleaves with a test's. The command
 * fails when either fails. Arguments go to Vitest (`npm test -- --sequence.seed=N`).
 */

if (process.argv.includes('--help')) {
  console.log(`Usage: npm test [-- <vitest options>]

Runs the linters, the format check, the OpenAPI lint, the floors rule and the type check (npm run checks)
beside every Vitest project (vitest run), and fails when either fails. Options after -- go to Vitest, e.g.
  npm test -- --sequence.seed=1234      repeat a shuffled order
  npm test -- --project unit            one project (the checks still run)`);
  process.exit(0);
}

interface Outcome {
  name: string;
  passed: boolean;
  /** `passed`, or how it failed: its exit code or the signal that ended it. */
  result: string;
}

const children = new Set<ChildProcess>();
// Whatever stops `npm test` stops both (Ctrl+C reaches them through the terminal too; a CI's SIGTERM does not).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

function run(name: string, command: string, args: string[], buffered: boolean): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    let output = '';
    if (buffered) {
      // Decoded as a stream, so a character split between two chunks stays whole.
      child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
      child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
    }
    child.once('error', reject);
    child.once('close', (code, signal) => {
      children.delete(child);
      const passed = code === 0;
      const result = passed ? 'passed' : `failed (${signal ? `ended by ${signal}` : `exit ${code}`})`;
      if (buffered) process.stdout.write(`\n── ${name} ──\n${output}`);
      resolve({ name, passed, result });
    });
  });
}

const outcomes = await Promise.all([
  run('npm run checks', 'npm', ['run', '--silent', 'checks'], true),
  run('vitest run', 'npx', ['vitest', 'run', ...process.argv.slice(2)], false),
]);
for (const outcome of outcomes) console.log(`${outcome.name}: ${outcome.result}`);
process.exitCode = outcomes.every((outcome) => outcome.passed) ? 0 : 1;
