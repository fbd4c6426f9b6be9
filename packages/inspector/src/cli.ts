#!/usr/bin/env node
import { parseCliArguments, USAGE } from './cli-arguments.js';
import { startInspector } from './server/start-inspector.js';
import { openStore } from './stores/open-store.js';

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCliArguments>;
  try {
    args = parseCliArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (args === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const opened = await openStore(args.db);
  const inspector = await startInspector({
    store: opened.store,
    port: args.port,
    pollIntervalMs: args.pollIntervalMs,
  });
  process.stdout.write(`Skein inspector (read-only) on ${inspector.url}\n`);
  const stop = async () => {
    await inspector.close();
    await opened.close();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `skein-inspector: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
