import { spawn } from 'node:child_process';

/**
 * `npm test`'s first step: the linters (`npm run lint`) and the type check (`npm run typecheck`) side by side.
 * Each is one process on one core, so on CI's two cores they take the time of the longer one instead of both
 * (about 35 s instead of 65 s). Each one's output is printed whole when it ends, so the two never interleave;
 * the step fails when either fails.
 */
const checks = ['lint', 'typecheck'];

function run(script: string): Promise<{ script: string; code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ script, code, output }));
  });
}

const results = await Promise.all(
  checks.map((script) =>
    run(script).then((result) => {
      process.stdout.write(result.output);
      console.log(`npm run ${script}: ${result.code === 0 ? 'passed' : `failed (exit ${result.code})`}`);
      return result;
    }),
  ),
);
process.exitCode = results.every((result) => result.code === 0) ? 0 : 1;
