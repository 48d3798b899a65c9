import { exitCodes, runCompareCommand } from './compare-command.js';

try {
  process.exitCode = await runCompareCommand(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`Cannot compare: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = exitCodes.unusable;
}
