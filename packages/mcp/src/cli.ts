#!/usr/bin/env node
import { runCli } from './cli/run-cli.js';

// stdout carries the protocol over stdio: a module that logs with console.log would corrupt it,
// so everything the console prints goes to stderr (where MCP clients show a server's log).
for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    // A second signal: leave at once.
    if (controller.signal.aborted) process.exit(130);
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
