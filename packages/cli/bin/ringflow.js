#!/usr/bin/env node
// The `ringflow` command. It runs the built JavaScript of the packages (`npm run build`, done by
// `npm ci`, `npm start` and the tests). Each subcommand loads what it needs when it runs, so this
// file imports nothing heavy: `ringflow --help` starts in a few tens of milliseconds.
import { existsSync } from 'node:fs';

const built = new URL('../dist/index.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    'ringflow: the packages are not built (no packages/cli/dist). Run `npm run build` at the repository root (npm ci does it unless scripts are disabled).\n',
  );
  process.exit(2);
}
const { main } = await import(built.href);
const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTerminal: process.stdout.isTTY === true,
});
// Exit explicitly: a command is over when main resolves, whatever handles a library left open.
// Writes to pipes and files are synchronous on the platforms we run on, so nothing is lost.
process.exit(code);
