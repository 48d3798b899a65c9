import { runTokenCommand } from './token-command.js';

process.exitCode = await runTokenCommand(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
