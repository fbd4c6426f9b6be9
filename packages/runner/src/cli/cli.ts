#!/usr/bin/env node
import { runCommand } from './run-command.js';

// First Ctrl-C: stop starting items and cancel the running ones (they resume next time).
// Second: leave at once.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  process.stderr.write('\nstopping… (Ctrl-C again to quit at once)\n');
  controller.abort();
});

void runCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});
