import { spawn } from 'node:child_process';

/**
 * `npm test`'s first step: the linters (`npm run lint`) and the type check (`npm run typecheck`) side by side.
 * Each is one process on one core, so on CI's two cores they take the time of the longer one instead of both
 * (39 s instead of 65 s). Each one's output is printed whole when it ends, so the two never interleave;
 * the step fails when either fails.
 */
const checks = ['lint', 'typecheck'];

interface Outcome {
  script: string;
  /** `passed`, or how it failed: its exit code or the signal that ended it. */
  result: string;
  output: string;
}

function run(script: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Decoded as a stream, so a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const result = code === 0 ? 'passed' : `failed (${signal ? `ended by ${signal}` : `exit ${code}`})`;
      resolve({ script, result, output });
    });
  });
}

const results = await Promise.all(
  checks.map((script) =>
    run(script).then((result) => {
      process.stdout.write(result.output);
      console.log(`npm run ${script}: ${result.result}`);
      return result;
    }),
  ),
);
process.exitCode = results.every((outcome) => outcome.result === 'passed') ? 0 : 1;
