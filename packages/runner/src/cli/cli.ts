#!/usr/bin/env node
import { compareCommand } from './compare-command.js';
import { reportCommand } from './report-command.js';
import { runCommand } from './run-command.js';
import { scoreCommand } from './score-command.js';

const argv = process.argv.slice(2);
const io = { stdout: process.stdout, stderr: process.stderr };

if (argv[0] === 'compare') {
  // No Ctrl-C handling: a comparison writes nothing, so stopping it at once loses nothing.
  void compareCommand(argv, io).then((code) => {
    process.exitCode = code;
  });
} else if (argv[0] === 'report') {
  // No Ctrl-C handling: each page is written whole (a file renamed into place) or not at all.
  void reportCommand(argv, io).then((code) => {
    process.exitCode = code;
  });
} else if (argv[0] === 'score') {
  // First Ctrl-C: drop the scores under way (the next skein score makes them). Second: leave.
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping… (Ctrl-C again to quit at once)\n');
    controller.abort();
  });
  void scoreCommand(argv, { ...io, signal: controller.signal }).then((code) => {
    process.exitCode = code;
  });
} else {
  // First Ctrl-C: stop starting items and cancel the running ones (they resume next time).
  // Second: leave at once.
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping… (Ctrl-C again to quit at once)\n');
    controller.abort();
  });
  void runCommand(argv, { ...io, signal: controller.signal }).then((code) => {
    process.exitCode = code;
  });
}
