import { runRealmBuilder } from './realm-builder-command.js';

process.exitCode = await runRealmBuilder(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
