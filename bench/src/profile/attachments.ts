// Issue 44's attachment benchmark: a thread shows 20 images of 1 MB, then runs 200 text steps,
// beside the same thread with a line of text in place of each image, on SQLite and PostgreSQL.
// Prints the database's size against the images' bytes plus the text-only database's size, the
// cost of saving a text step after the images against one in the text-only thread (steps
// alternate between the two, so the machine's load falls on both alike), and what loading the
// thread and its next model call read of the images. Usage:
//
//   pnpm --filter @skein/bench attachments [sqlite|postgres|both] [steps=200]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CheckpointStore, chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import pg from 'pg';
import { type Counted, countedStore } from './counted-store.js';

const [which = 'both', stepsArg = '200'] = process.argv.slice(2).filter((a) => a !== '--');
const STEPS = Number(stepsArg);
const IMAGES = 20;
const MB = 1024 * 1024;

/** A PNG's signature and IHDR (1024x768), then random bytes: 1 MB that no two images share. */
function image(): Uint8Array {
  const head = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0,
    0, 0, 3, 0, 8, 6, 0, 0, 0,
  ];
  const bytes = randomBytes(MB);
  bytes.set(head);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function engineOn(store: CheckpointStore): SkeinEngine {
  const engine = new SkeinEngine({
    store,
    llm: new ScriptedLLMClient(() => ({ content: 'noted' })),
  });
  engine.registerWorkflow(chatWorkflow());
  return engine;
}

interface Subject {
  readonly name: string;
  /** One store with the images thread, one with the text-only thread, both counted. */
  open(): Promise<{ images: Counted; plain: Counted }>;
  /** Bytes the database of `which` takes on disk, after its store closed. */
  size(which: 'images' | 'plain'): Promise<number>;
  stop(): Promise<void>;
}

function sqlite(): Subject {
  const dir = mkdtempSync(join(tmpdir(), 'skein-bench-attachments-'));
  const file = (which: string) => join(dir, `${which}.db`);
  return {
    name: 'SQLite',
    open: async () => ({
      images: countedStore(new SqliteCheckpointStore({ filename: file('images') })),
      plain: countedStore(new SqliteCheckpointStore({ filename: file('plain') })),
    }),
    // Closing folds the WAL into the file: the file is the whole database.
    size: async (which) => statSync(file(which)).size,
    stop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgres(): Promise<Subject> {
  const server = await startTestPostgres();
  const pool = new pg.Pool({ connectionString: server.connectionString });
  return {
    name: 'PostgreSQL',
    open: async () => ({
      images: countedStore(new PostgresCheckpointStore({ pool, schema: 'images' })),
      plain: countedStore(new PostgresCheckpointStore({ pool, schema: 'plain' })),
    }),
    // Every table of the schema with its TOAST and indexes, after a VACUUM settled it.
    size: async (which) => {
      await pool.query('VACUUM');
      const { rows } = await pool.query<{ bytes: string }>(
        `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [which],
      );
      return Number(rows[0]!.bytes);
    },
    stop: async () => {
      await pool.end();
      await server.stop();
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function measure(subject: Subject): Promise<string[]> {
  const { images, plain } = await subject.open();
  const withImages = engineOn(images.store);
  const textOnly = engineOn(plain.store);
  for (let i = 0; i < IMAGES; i++) {
    await withImages.send('t', {
      content: [
        { type: 'text', text: `photo ${i}` },
        { type: 'image', mediaType: 'image/png', data: image() },
      ],
    });
    await textOnly.send('t', `photo ${i}: a line of text in place of the image`);
  }
  images.reset();
  plain.reset();
  // Alternating, so whatever else the machine does falls on both threads alike.
  for (let i = 0; i < STEPS; i++) {
    await withImages.send('t', `step ${i}`);
    await textOnly.send('t', `step ${i}`);
  }
  const saveImages = median(images.saveMs);
  const savePlain = median(plain.saveMs);
  withImages.close();
  textOnly.close();

  // A new process's view: a fresh engine loads the thread, then takes one more turn.
  images.reset();
  const reader = engineOn(images.store);
  const loadStart = performance.now();
  const loaded = await reader.getThread('t');
  const loadMs = performance.now() - loadStart;
  const readOnLoad = images.attachmentBytes;
  const messages = loaded!.conversation.getMessages().length;
  await reader.send('t', 'one more');
  const readOnCall = images.attachmentBytes;
  reader.close();
  plain.reset();
  const plainReader = engineOn(plain.store);
  const plainStart = performance.now();
  await plainReader.getThread('t');
  const plainLoadMs = performance.now() - plainStart;
  plainReader.close();

  await images.store.close?.();
  await plain.store.close?.();
  const size = await subject.size('images');
  const plainSize = await subject.size('plain');
  const floor = IMAGES * MB + plainSize;
  const f = (n: number) => n.toFixed(2);
  return [
    `| ${subject.name} | database size | ${f(size / MB)} MB | ${f(floor / MB)} MB (20 MB of images + the text-only database, ${f(plainSize / MB)} MB) | ${f(size / floor)}× | ≤ 1.1× |`,
    `| ${subject.name} | save of a text step (median of ${STEPS}) | ${f(saveImages)} ms | ${f(savePlain)} ms (text-only thread) | ${f(saveImages / savePlain)}× | ≤ 1.2× |`,
    `| ${subject.name} | load the thread (${messages} messages) | ${f(loadMs)} ms, ${readOnLoad} image bytes read | ${f(plainLoadMs)} ms | ${f(loadMs / plainLoadMs)}× | no image bytes |`,
    `| ${subject.name} | the next model call | ${f(readOnCall / MB)} MB of images read (the ${IMAGES} the view shows) | | | only when a call shows them |`,
  ];
}

const subjects: (() => Promise<Subject>)[] = [];
if (which === 'sqlite' || which === 'both') subjects.push(async () => sqlite());
if (which === 'postgres' || which === 'both') subjects.push(postgres);
if (subjects.length === 0) throw new Error(`unknown store ${which}: sqlite, postgres or both`);

const rows: string[] = [];
for (const make of subjects) {
  const subject = await make();
  try {
    rows.push(...(await measure(subject)));
  } finally {
    await subject.stop();
  }
}
console.log(
  `Attachments: ${IMAGES} images of 1 MB, then ${STEPS} text steps; Node ${process.version}, ${new Date().toISOString()}\n`,
);
console.log('| store | what | with images | without | ratio | goal |');
console.log('|---|---|---:|---:|---:|---|');
for (const row of rows) console.log(row);
