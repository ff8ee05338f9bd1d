#!/usr/bin/env node
// The `ringflow` command. It runs the TypeScript sources directly (through tsx), so there is no
// build step between editing the project and running it.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTerminal: process.stdout.isTTY === true,
});
// Exit explicitly: a command is over when main resolves, whatever handles a library left open.
// Writes to pipes and files are synchronous on the platforms we run on, so nothing is lost.
process.exit(code);
