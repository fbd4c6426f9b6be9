// A separate process sending to one chat thread on a SQLite file:
//   node --import tsx inbox-child.ts <filename> <owner> <seed> <senders> <perSender> <goFile>
// `senders` is a comma-separated list of sender names. Each sender sends `perSender` messages
// (`<sender>-<k>`, one after another) with an `ifBusy` mode and a number of event-loop turns
// before each drawn from a PRNG seeded with `seed`. Prints one JSON line per send, then waits
// until the thread is at rest with nothing in its inbox before it exits, so no run of its own
// is cut short.
import { existsSync } from 'node:fs';
import type { IfBusy } from '@skein/core';
import { openStore } from './driver.js';
import { inboxChatEngine } from './inbox-chat.js';

const [filename, owner, seed, senders, perSender, goFile] = process.argv.slice(2);
if (!filename || !owner || !seed || !senders || !perSender || !goFile) {
  process.stderr.write(
    'usage: inbox-child.ts <filename> <owner> <seed> <senders> <perSender> <goFile>\n',
  );
  process.exit(2);
}

/** mulberry32: a small seeded PRNG, so a failing run can be repeated. */
function prng(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODES: readonly IfBusy[] = ['queue', 'steer', 'interrupt', 'reject'];
const THREAD = 'chat';
const random = prng(Number(seed));
const store = openStore({ filename });
const engine = inboxChatEngine(store, owner);
const tick = () => new Promise((resolve) => setImmediate(resolve));

// A hang is reported, not waited out: what is still waiting, and the thread as the store has it.
const unfinished = new Set<string>();
let phase = 'sending';
setTimeout(async () => {
  const thread = await engine.getThread(THREAD).catch(() => undefined);
  const pending = await store.pendingMessages(THREAD).catch(() => []);
  process.stderr.write(
    `${owner} stuck ${phase}: ${JSON.stringify({
      unfinished: [...unfinished],
      status: thread?.status,
      inboxTaken: thread?.state.inboxTaken,
      pending: pending.map((p) => [p.seq, p.id, p.mode]),
    })}\n`,
  );
  process.exit(3);
}, 100_000).unref();

process.stdout.write('ready\n');
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 5));

await Promise.all(
  senders.split(',').map(async (sender) => {
    for (let k = 0; k < Number(perSender); k++) {
      const ifBusy = MODES[Math.floor(random() * MODES.length)]!;
      for (let wait = Math.floor(random() * 8); wait > 0; wait--) await tick();
      const id = `${sender}-${k}`;
      unfinished.add(id);
      try {
        const { result } = await engine.send(THREAD, id, { ifBusy, messageId: id });
        process.stdout.write(`${JSON.stringify({ id, ifBusy, status: result.status })}\n`);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'THREAD_BUSY') throw error;
        process.stdout.write(`${JSON.stringify({ id, ifBusy, status: 'REJECTED' })}\n`);
      }
      unfinished.delete(id);
    }
  }),
);

// At rest: not RUNNING (here or elsewhere) and nothing waiting; whoever posts later runs it.
phase = 'waiting for rest';
for (;;) {
  const thread = await engine.getThread(THREAD);
  const pending = await store.pendingMessages(THREAD);
  if (thread && thread.status !== 'RUNNING' && pending.length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 10));
}
store.close();
process.stdout.write('done\n');
