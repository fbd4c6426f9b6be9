import { readFileSync } from 'node:fs';
import { type CheckpointStore, chatWorkflow, SkeinEngine } from '@skein/core';
import { attachmentDigest } from '@skein/core/store-kit';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, encodeBase64, type LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { applyMigrations } from './schema/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

// A PNG's signature and IHDR (3x2), then bytes of its own so each image below is distinct.
const png = (tail: number[] = []) =>
  Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    0,
    0,
    0,
    3,
    0,
    0,
    0,
    2,
    8,
    6,
    0,
    0,
    0,
    ...tail,
  ]);
const IMAGE = png(Array.from({ length: 4096 }, (_, i) => i % 251));

function engineOn(store: CheckpointStore, requests: LLMRequest[] = []): SkeinEngine {
  const llm = new ScriptedLLMClient((request) => {
    requests.push(request);
    return { content: `seen: ${contentText(request.messages.at(-1)!.content)}` };
  });
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(chatWorkflow());
  return engine;
}

const withImage = (text: string, data: Uint8Array = IMAGE) => ({
  content: [
    { type: 'text' as const, text },
    { type: 'image' as const, mediaType: 'image/png', data },
  ],
});

async function one(sql: string, values: unknown[] = []): Promise<unknown> {
  const { rows } = await db.pool.query({ text: sql, values, rowMode: 'array' });
  return rows[0]?.[0];
}

describe('PostgresCheckpointStore attachments', () => {
  it('writes an image once however many messages, threads and forks show it', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'once' });
    const engine = engineOn(store);
    for (let turn = 0; turn < 20; turn++) await engine.send('a', withImage(`turn ${turn}`));
    await engine.send('b', withImage('me too'));
    await engine.fork('a', { threadId: 'fork' });
    expect(await one('SELECT count(*)::int FROM once.attachments')).toBe(1);
    expect(await one('SELECT sum(length(bytes))::int FROM once.attachments')).toBe(IMAGE.length);
    const base64 = encodeBase64(IMAGE).slice(0, 100);
    expect(
      await one('SELECT count(*)::int FROM once.messages WHERE strpos(body, $1) > 0', [base64]),
    ).toBe(0);
    expect(
      await one(
        "SELECT string_agg(t.thread_id, ',' ORDER BY t.id) FROM once.attachment_uses u JOIN once.threads t ON t.id = u.thread",
      ),
    ).toBe('a,b,fork');
    await store.close();
  });

  it('drops an attachment with the last thread that uses it, forks included', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'drops' });
    const engine = engineOn(store);
    await engine.send('a', withImage('look'));
    await engine.send('b', withImage('other', png([1, 2, 3])));
    await engine.fork('a', { threadId: 'fork' });
    const digest = attachmentDigest(IMAGE);
    await store.delete('a');
    expect(await store.readAttachment('fork', digest)).toEqual(IMAGE);
    expect(await one('SELECT count(*)::int FROM drops.attachments')).toBe(2);
    await store.delete('fork');
    expect(await store.readAttachment('fork', digest)).toBeUndefined();
    expect(await one('SELECT count(*)::int FROM drops.attachments')).toBe(1);
    expect(await one('SELECT count(*)::int FROM drops.attachment_uses')).toBe(1);
    await store.close();
  });

  it('keeps an attachment a save uses again while the last thread that had it is deleted', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'race' });
    const engine = engineOn(store);
    await engine.send('a', withImage('look'));
    // Both at once, many times: whichever order the server takes them in, b keeps its image.
    for (let round = 0; round < 10; round++) {
      await Promise.all([store.delete('a'), engine.send('b', withImage(`round ${round}`))]);
      expect(await store.readAttachment('b', attachmentDigest(IMAGE))).toEqual(IMAGE);
      await engine.send('a', withImage('again'));
      await store.delete('b');
    }
    await store.close();
  });

  it('opens a schema the store wrote before attachments: its inline parts load as they were, new ones go by digest', async () => {
    // inline-parts-v3.json: see __fixtures__/README.md.
    const rows = JSON.parse(
      readFileSync(new URL('./__fixtures__/inline-parts-v3.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown[]>;
    await applyMigrations(db.pool, 'before', MIGRATIONS.slice(0, 3));
    expect((rows.migrations as { version: number }[]).map((m) => m.version)).toEqual([1, 2, 3]);
    for (const table of ['threads', 'checkpoints', 'messages', 'log_entries'])
      await db.pool.query(
        `INSERT INTO before.${table} OVERRIDING SYSTEM VALUE
         SELECT * FROM json_populate_recordset(null::before.${table}, $1)`,
        [JSON.stringify(rows[table])],
      );
    for (const table of ['threads', 'checkpoints'])
      await db.pool.query(
        `SELECT setval(pg_get_serial_sequence('before.${table}', 'id'), (SELECT max(id) FROM before.${table}))`,
      );
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'before' });
    expect(await store.migrate()).toEqual({ from: 3, to: SCHEMA_VERSION });
    const old = (await store.load('before'))!.conversation.messages;
    expect(old[0]!.content).toEqual([
      { type: 'text', text: 'what is on it?' },
      { type: 'image', mediaType: 'image/png', data: encodeBase64(png()) },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'q3.pdf',
        data: encodeBase64(new TextEncoder().encode('%PDF-1.4\n% made before attachments\n')),
      },
    ]);
    const requests: LLMRequest[] = [];
    await engineOn(store, requests).send('before', withImage('and this one?'));
    const sent = requests[0]!.messages.flatMap((m) =>
      typeof m.content === 'string' ? [] : m.content,
    );
    expect(
      sent.filter((p) => p.type !== 'text').every((p) => 'data' in p && p.data !== undefined),
    ).toBe(true);
    const stored = (await store.load('before'))!.conversation.messages;
    expect(stored.slice(0, old.length)).toEqual(old);
    expect(stored.at(-2)!.content).toEqual([
      { type: 'text', text: 'and this one?' },
      {
        type: 'image',
        mediaType: 'image/png',
        ref: { digest: attachmentDigest(IMAGE), size: IMAGE.length, width: 3, height: 2 },
      },
    ]);
    expect(await store.readAttachment('before', attachmentDigest(IMAGE))).toEqual(IMAGE);
    await store.close();
  });
});
