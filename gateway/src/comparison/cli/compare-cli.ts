import { exitCodes, runCompareCommand } from './compare-command.js';

/**
 * On a terminal, a long run's progress is one line of stderr, rewritten as it goes and cleared at the end;
 * a pipe or a file gets none, so that what a script reads is the report alone.
 */
const terminal = process.stderr.isTTY === true;
let progressShown = false;
const progress = terminal
  ? (sentence: string) => {
      progressShown = true;
      const width = Math.max((process.stderr.columns ?? 80) - 1, 20);
      process.stderr.write(`\r\x1b[K${`Comparing: ${sentence}`.slice(0, width)}`);
    }
  : undefined;

try {
  process.exitCode = await runCompareCommand(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => {
      if (progressShown) process.stderr.write('\r\x1b[K');
      progressShown = false;
      process.stderr.write(text);
    },
    progress,
  });
} catch (error) {
  process.stderr.write(`Cannot compare: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = exitCodes.unusable;
} finally {
  if (progressShown) process.stderr.write('\r\x1b[K');
}
