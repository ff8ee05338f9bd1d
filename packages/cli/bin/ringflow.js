#!/usr/bin/env node
// The `ringflow` command. It runs the built JavaScript of the packages (`npm run build`, done by
// `npm ci`, `npm start` and the tests); tsx is registered so that flows and scenario files
// written in TypeScript (`defineFlow`) can be loaded.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../dist/index.js');
const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTerminal: process.stdout.isTTY === true,
});
// Exit explicitly: a command is over when main resolves, whatever handles a library left open.
// Writes to pipes and files are synchronous on the platforms we run on, so nothing is lost.
process.exit(code);
