// A separate process taking leases and saving checkpoints on a SQLite file, driven line by line
// on stdin so that several of them act at the same moment:
//   node --import tsx lease-child.ts <filename> <owner>
// `acquire <threadId> <expiresAt> <now>`  answers `acquired true` or `acquired false`
// `save <threadId>`  saves, as <owner>, a checkpoint continuing the thread's latest one with one
//                    message naming the owner; answers `saved <checkpointId>` or `refused <code>`
// `exit`             closes the store and exits.
import { createInterface } from 'node:readline';
import type { Checkpoint } from '@skein/core/store-kit';
import { SkeinError } from '@skein/spec';
import { openStore } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';

const [filename, owner] = process.argv.slice(2);
if (!filename || !owner) {
  process.stderr.write('usage: lease-child.ts <filename> <owner>\n');
  process.exit(2);
}
const store = openStore({ filename });

async function save(threadId: string): Promise<string> {
  const head = await store.load(threadId);
  const sequence = (head?.checkpoint.sequence ?? 0) + 1;
  const from = {
    messages: head?.conversation.messages.length ?? 0,
    log: head?.conversation.log.length ?? 0,
  };
  const message = { role: 'user', content: `${owner} saves ${sequence}` };
  const checkpoint: Checkpoint = {
    ...makeCheckpoint(threadId, sequence, from, [message]),
    owner: owner!,
  };
  try {
    await store.save(checkpoint);
    return `saved ${checkpoint.id}`;
  } catch (error) {
    if (SkeinError.isInstance(error)) return `refused ${error.code}`;
    throw error;
  }
}

async function handle(command: string | undefined, args: string[]): Promise<string> {
  const [threadId, expiresAt, now] = args;
  if (command === 'acquire' && threadId) {
    const lease = { owner: owner!, expiresAt: Number(expiresAt), now: Number(now) };
    return `acquired ${await store.acquireLease(threadId, lease)}`;
  }
  if (command === 'save' && threadId) return save(threadId);
  throw new Error(`unknown command ${command} ${args.join(' ')}`);
}

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const [command, ...args] = line.split(' ');
  if (command === 'exit') break;
  process.stdout.write(`${await handle(command, args)}\n`);
}
store.close();
process.exit(0);
