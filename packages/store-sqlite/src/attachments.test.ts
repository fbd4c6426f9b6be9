import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckpointStore, chatWorkflow, SkeinEngine } from '@skein/core';
import { attachmentDigest } from '@skein/core/store-kit';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, encodeBase64, type LLMRequest } from '@skein/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema/migrations.js';
import { openRaw, openStore } from './test-support/driver.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-attachments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

function count(filename: string, sql: string): unknown {
  const db = openRaw(filename, { readonly: true });
  try {
    return db.column(sql).get();
  } finally {
    db.close();
  }
}

describe('SqliteCheckpointStore attachments', () => {
  it('writes an image once however many messages, threads and forks show it', async () => {
    const filename = join(dir, 'once.db');
    const store = openStore({ filename });
    const engine = engineOn(store);
    for (let turn = 0; turn < 20; turn++) await engine.send('a', withImage(`turn ${turn}`));
    await engine.send('b', withImage('me too'));
    await engine.fork('a', { threadId: 'fork' });
    store.close();
    expect(count(filename, 'SELECT count(*) FROM attachments')).toBe(1);
    expect(count(filename, 'SELECT sum(length(bytes)) FROM attachments')).toBe(IMAGE.length);
    // The message rows hold refs: no row carries the image's base64.
    const base64 = encodeBase64(IMAGE).slice(0, 100);
    expect(
      count(filename, `SELECT count(*) FROM messages WHERE instr(body, '${base64}') > 0`),
    ).toBe(0);
    expect(
      count(
        filename,
        'SELECT group_concat(t.thread_id) FROM attachment_uses u JOIN threads t ON t.id = u.thread ORDER BY t.id',
      ),
    ).toBe('a,b,fork');
  });

  it('drops an attachment with the last thread that uses it, forks included', async () => {
    const filename = join(dir, 'delete.db');
    const store = openStore({ filename });
    const engine = engineOn(store);
    await engine.send('a', withImage('look'));
    await engine.send('b', withImage('other', png([1, 2, 3])));
    await engine.fork('a', { threadId: 'fork' });
    const digest = attachmentDigest(IMAGE);
    await store.delete('a');
    expect(await store.readAttachment('fork', digest)).toEqual(IMAGE);
    expect(count(filename, 'SELECT count(*) FROM attachments')).toBe(2);
    await store.delete('fork');
    expect(await store.readAttachment('fork', digest)).toBeUndefined();
    expect(count(filename, 'SELECT count(*) FROM attachments')).toBe(1);
    expect(count(filename, 'SELECT count(*) FROM attachment_uses')).toBe(1);
    store.close();
  });

  it('opens a file the store wrote before attachments: its inline parts load as they were, new ones go by digest', async () => {
    // inline-parts-v3.db: see __fixtures__/README.md.
    const filename = join(dir, 'inline-parts-v3.db');
    copyFileSync(
      fileURLToPath(new URL('./__fixtures__/inline-parts-v3.db', import.meta.url)),
      filename,
    );
    expect(count(filename, 'PRAGMA user_version')).toBe(3);
    const store = openStore({ filename });
    const old = (await store.load('before'))!.conversation.messages;
    expect(old[0]!.content).toEqual([
      { type: 'text', text: 'what is on it?' },
      {
        type: 'image',
        mediaType: 'image/png',
        data: encodeBase64(png()),
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'q3.pdf',
        data: encodeBase64(new TextEncoder().encode('%PDF-1.4\n% made before attachments\n')),
      },
    ]);
    const requests: LLMRequest[] = [];
    const engine = engineOn(store, requests);
    await engine.send('before', withImage('and this one?'));
    // The model sees the old inline bytes and the new image read back, all as bytes.
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
    store.close();
    expect(count(filename, 'PRAGMA user_version')).toBe(SCHEMA_VERSION);
  });
});
