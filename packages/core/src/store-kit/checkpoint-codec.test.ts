import { StoreError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../checkpoint/checkpoint-store.js';
import type { ThreadState } from '../thread/thread-state.js';
import { encodeCheckpoint } from './checkpoint-codec.js';
import { checkContinues } from './continuity.js';
import type { StoreIdentity } from './store-errors.js';
import { decodeStoredThread } from './stored-rows.js';

const store: StoreIdentity = {
  name: 'Test store t.db',
  details: { filename: 't.db' },
  packageName: '@skein/store-test',
};

function checkpoint(changes: Partial<Record<string, unknown>> = {}): Checkpoint {
  return {
    id: 't:2',
    threadId: 't',
    sequence: 2,
    parentId: 't:1',
    createdAt: '2026-11-22T10:00:00.000Z',
    state: {
      threadId: 't',
      workflowId: 'w',
      workflowVersion: '1',
      status: 'RUNNING',
      step: 2,
      currentNodeId: 'n',
      variables: { total: -0 },
    } as unknown as ThreadState,
    conversation: {
      version: 1,
      from: { messages: 1, log: 0 },
      messages: [{ role: 'user', content: 'hi' }],
      log: [],
    },
    ...changes,
  } as Checkpoint;
}

describe('the checkpoint codec', () => {
  it('turns a checkpoint into column values, and stored rows back into the thread', () => {
    const encoded = encodeCheckpoint(checkpoint(), store);
    expect(encoded).toMatchObject({
      id: 't:2',
      parentId: 't:1',
      status: 'RUNNING',
      step: 2,
      currentNodeId: 'n',
      owner: undefined,
      from: { messages: 1, log: 0 },
      messages: ['{"role":"user","content":"hi"}'],
      log: [],
    });
    const row = {
      checkpoint_id: encoded.id,
      sequence: encoded.sequence,
      created_at: encoded.createdAt,
      status: encoded.status,
      step: encoded.step,
      current_node_id: encoded.currentNodeId,
      message_count: 2,
      log_count: 0,
      state: encoded.state,
    };
    const bodies = { messages: ['{"role":"user","content":"a"}', ...encoded.messages], log: [] };
    const thread = decodeStoredThread('t', row, bodies, store);
    expect(thread.checkpoint).toEqual({
      id: 't:2',
      threadId: 't',
      sequence: 2,
      createdAt: '2026-11-22T10:00:00.000Z',
      status: 'RUNNING',
      step: 2,
      currentNodeId: 'n',
      messageCount: 2,
    });
    expect(Object.is((thread.state.variables as { total: number }).total, -0)).toBe(true);
    expect(thread.conversation.messages.map((m) => m.content)).toEqual(['a', 'hi']);
  });

  it('refuses a malformed checkpoint as INVALID_ARGUMENT naming the field', () => {
    expect(() => encodeCheckpoint(checkpoint({ sequence: 0 }), store)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'checkpoint.sequence' }),
    );
  });

  it('refuses a value JSON would change as STORE_UNSERIALIZABLE naming the store', () => {
    const bad = checkpoint();
    const error = (() => {
      try {
        encodeCheckpoint({ ...bad, state: { ...bad.state, variables: { n: Number.NaN } } }, store);
      } catch (e) {
        return e;
      }
    })();
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'STORE_UNSERIALIZABLE',
      retryable: false,
      details: { filename: 't.db', threadId: 't', checkpointId: 't:2' },
    });
    expect((error as Error).message).toMatch(/^Test store t\.db cannot store checkpoint t:2/);
  });

  it('reports stored rows that do not read back as STORE_CORRUPT', () => {
    const row = {
      checkpoint_id: 'c',
      sequence: 1,
      created_at: 'x',
      status: 'RUNNING',
      step: 1,
      current_node_id: null,
      message_count: 2,
      log_count: 0,
      state: '{}',
    };
    expect(() => decodeStoredThread('t', row, { messages: ['{}'], log: [] }, store)).toThrow(
      expect.objectContaining({
        code: 'STORE_CORRUPT',
        details: expect.objectContaining({ filename: 't.db' }),
      }),
    );
    expect(() =>
      decodeStoredThread('t', row, { messages: ['{}', '{oops'], log: [] }, store),
    ).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ where: 'message 1 of thread t' }),
      }),
    );
  });

  it('lets a save continue only the thread as stored', () => {
    const encoded = encodeCheckpoint(checkpoint(), store);
    const head = { message_count: 1, log_count: 0, last_checkpoint_id: 't:1' };
    expect(() => checkContinues(encoded, head)).not.toThrow();
    expect(() => checkContinues(encoded, { ...head, message_count: 2 })).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CONFLICT' }),
    );
    expect(() => checkContinues(encoded, { ...head, last_checkpoint_id: 't:0' })).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CONFLICT' }),
    );
    expect(() => checkContinues(encoded, undefined)).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CONFLICT' }),
    );
  });
});
