#!/usr/bin/env node
import { constants } from 'node:os';
import { runCli } from './cli/run-cli.js';

// stdout carries the protocol over stdio: a module that logs with console.log would corrupt it,
// so everything the console prints goes to stderr (where MCP clients show a server's log).
for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    // A second signal: leave at once, with the code a shell gives a process the signal killed.
    if (controller.signal.aborted) process.exit(128 + constants.signals[signal]);
    // The first: runCli cancels the running threads and runs the module's close (for a bounded
    // time), then resolves with the exit code.
    controller.abort();
  });

void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
}).then((code) => {
  // A module's own handles (a model server, a child process) would keep the process alive.
  process.exit(code);
});
