import type { LLMMessage } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { ContextOperation } from './context-operations.js';
import { ConversationManager, type ConversationManagerOptions } from './conversation-manager.js';
import { ConversationError } from './errors/conversation-error.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { applyDeltas, type ConversationDelta, type ConversationSnapshot } from './snapshot.js';

// Issue 11 #11 and #12: junk is refused on the way in with a typed error naming where it was,
// instead of being stored and failing later (at FILTER, restore or JSON.stringify).

const options = { initialTools: () => [{ name: 'calc', description: 'math', parameters: {} }] };

function manager(): ConversationManager {
  const m = new ConversationManager(options);
  m.startNewBatchWithInitialTools(0);
  m.addMessage({ role: 'user', content: 'one' });
  m.addMessage({ role: 'assistant', content: 'two' });
  return m;
}

function refuse(
  action: (m: ConversationManager) => unknown,
  code: string,
  where: RegExp,
): SkeinError {
  const m = manager();
  const before = JSON.stringify(m.snapshot());
  const visible = m.getMessages();
  let thrown: unknown;
  try {
    action(m);
  } catch (error) {
    thrown = error;
  }
  expect(SkeinError.isInstance(thrown), String(thrown)).toBe(true);
  expect((thrown as SkeinError).code).toBe(code);
  expect((thrown as Error).message).toMatch(where);
  expect(JSON.stringify(m.snapshot())).toBe(before);
  expect(m.getMessages()).toBe(visible);
  return thrown as SkeinError;
}

const junk = (value: unknown) => value as never;
/** `items` with a hole (a missing element, not `undefined`) at `at`. */
function withHole<T>(items: readonly T[], at: number): T[] {
  const out = items.slice();
  out.splice(at, 0, items[0]!);
  delete out[at];
  return out;
}
const cyclic = (): Record<string, unknown> => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};

describe('setOriginalIndices', () => {
  it('refuses holes', () => {
    const e = refuse((m) => m.setOriginalIndices(new Array(3)), 'INVALID_ARGUMENT', /indices\[0\]/);
    expect((e as InvalidArgumentError).argument).toBe('indices[0]');
    refuse(
      (m) => m.setOriginalIndices(withHole([0, 1], 1)),
      'INVALID_ARGUMENT',
      /indices\[1\].*hole/,
    );
  });

  it('refuses non-integers, duplicates and positions outside storage', () => {
    refuse((m) => m.setOriginalIndices([0.5]), 'INVALID_ARGUMENT', /indices\[0\]/);
    refuse((m) => m.setOriginalIndices(junk(['1'])), 'INVALID_ARGUMENT', /indices\[0\]/);
    refuse((m) => m.setOriginalIndices([2, 2]), 'INVALID_ARGUMENT', /indices\[1\].*repeats/);
    refuse((m) => m.setOriginalIndices([3]), 'INVALID_ARGUMENT', /indices\[0\].*0\.\.2/);
    refuse((m) => m.setOriginalIndices([-1]), 'INVALID_ARGUMENT', /indices\[0\]/);
    refuse((m) => m.setOriginalIndices(junk('0,1')), 'INVALID_ARGUMENT', /indices/);
  });
});

describe('messages', () => {
  it('refuse sparse toolCalls', () => {
    const call = { id: 'a', name: 'calc', arguments: '{}' };
    const calls = withHole([call, { ...call, id: 'b' }], 1);
    const e = refuse(
      (m) => m.addMessage(junk({ role: 'assistant', content: '', toolCalls: calls })),
      'INVALID_MESSAGE',
      /toolCalls\[1\]/,
    );
    expect((e as ConversationError).field).toBe('message.toolCalls[1]');
  });

  it('refuse BigInt, cyclic and other non-JSON metadata, naming the path', () => {
    const e = refuse(
      (m) => m.addMessage({ role: 'user', content: 'x', metadata: { a: { n: 1n } } }),
      'INVALID_MESSAGE',
      /BigInt/,
    );
    expect((e as ConversationError).field).toBe('message.metadata.a.n');
    refuse(
      (m) => m.addMessage({ role: 'user', content: 'x', metadata: cyclic() }),
      'INVALID_MESSAGE',
      /message\.metadata\.self.*cycle/,
    );
    refuse(
      (m) => m.addMessage({ role: 'user', content: 'x', metadata: { at: new Date(0) } }),
      'INVALID_MESSAGE',
      /message\.metadata\.at.*Date/,
    );
    refuse(
      (m) => m.addMessage({ role: 'user', content: 'x', metadata: { n: Number.NaN } }),
      'INVALID_MESSAGE',
      /NaN/,
    );
    refuse(
      (m) =>
        m.applyOperation({
          type: 'INSERT',
          position: 0,
          message: { role: 'user', content: 'x', metadata: { f: () => 1 } },
        }),
      'INVALID_MESSAGE',
      /INSERT message\.metadata\.f/,
    );
  });

  it('keep `__proto__` metadata keys as data, not as a prototype', () => {
    const m = new ConversationManager();
    m.addMessage({
      role: 'user',
      content: 'x',
      metadata: JSON.parse('{"__proto__":{"polluted":1}}'),
    });
    const metadata = m.getStoredMessage(0)!.metadata!;
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(Object.keys(metadata)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('booleans and options', () => {
  it('refuse a non-boolean withInitialTools, keepSystemMessage or preserveSystem', () => {
    refuse(
      (m) =>
        m.applyOperation(
          junk({ type: 'BATCH_MANAGEMENT', action: 'start', withInitialTools: 'no' }),
        ),
      'INVALID_ARGUMENT',
      /withInitialTools/,
    );
    refuse(
      (m) => m.applyOperation(junk({ type: 'CLEAR', keepSystemMessage: 0 })),
      'INVALID_ARGUMENT',
      /keepSystemMessage/,
    );
    refuse(
      (m) =>
        m.applyOperation(junk({ type: 'TRUNCATE', keep: 'last', count: 1, preserveSystem: 'yes' })),
      'INVALID_ARGUMENT',
      /preserveSystem/,
    );
  });

  it('refuse unknown roles, non-object metadata and non-function counters in operations', () => {
    refuse(
      (m) => m.applyOperation({ type: 'FILTER', roles: junk(['robot']) }),
      'INVALID_ARGUMENT',
      /roles\[0\].*robot/,
    );
    refuse(
      (m) => m.applyOperation(junk({ type: 'FILTER', metadata: 'x' })),
      'INVALID_ARGUMENT',
      /metadata/,
    );
    refuse(
      (m) => m.applyOperation(junk({ type: 'TRUNCATE', maxTokens: 5, tokenCounter: 3 })),
      'INVALID_ARGUMENT',
      /tokenCounter/,
    );
    refuse((m) => m.applyOperation(junk(null)), 'INVALID_ARGUMENT', /operation/);
    refuse(
      (m) => m.applyOperation(junk({ type: 'BATCH_MANAGEMENT', action: 'jump' })),
      'INVALID_ARGUMENT',
      /jump/,
    );
  });

  it('refuse constructor options that are not functions', () => {
    for (const bad of [
      { initialTools: [] },
      { formatToolDescription: 'x' },
      { tokenCounter: {} },
    ] as unknown as ConversationManagerOptions[]) {
      expect(() => new ConversationManager(bad)).toThrow(InvalidArgumentError);
    }
  });

  it('refuse initial tools and formatter results of the wrong type when a batch starts', () => {
    const notArray = new ConversationManager({ initialTools: junk(() => 'abc') });
    expect(() => notArray.startNewBatchWithInitialTools(0)).toThrow(/initialTools/);
    expect(notArray.getMessages()).toEqual([]);
    const notText = new ConversationManager({
      ...options,
      formatToolDescription: junk(() => 42),
    });
    expect(() => notText.startNewBatchWithInitialTools(0)).toThrow(/formatToolDescription/);
    expect(notText.getTotalMessageCount()).toBe(0);
  });

  it('refuse a cursor that JSON cannot print, with a typed error', () => {
    refuse((m) => m.deltaSince(junk({ messages: 1n, log: 0 })), 'INVALID_ARGUMENT', /cursor/);
    refuse((m) => m.revertTo(junk(cyclic())), 'INVALID_ARGUMENT', /cursor/);
    refuse((m) => m.deltaSince(junk(null)), 'INVALID_ARGUMENT', /cursor/);
  });
});

describe('applyDeltas and restore of junk', () => {
  const good = () => manager().snapshot();
  const delta = (): ConversationDelta => {
    const m = manager();
    return m.deltaSince({ messages: 0, log: 0 });
  };

  function snapshotError(action: () => unknown): ConversationError {
    let thrown: unknown;
    try {
      action();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConversationError);
    expect((thrown as ConversationError).code).toBe('INVALID_SNAPSHOT');
    return thrown as ConversationError;
  }

  it('applyDeltas(undefined, null) is a typed error', () => {
    expect(snapshotError(() => applyDeltas(undefined, junk(null))).field).toBe('deltas');
  });

  it('names the bad part of the base or a delta', () => {
    expect(snapshotError(() => applyDeltas(junk('x'), [])).field).toBe('base');
    expect(snapshotError(() => applyDeltas(junk({ version: 1 }), [])).field).toBe('base.messages');
    expect(snapshotError(() => applyDeltas(junk({ ...good(), version: 9 }), [])).field).toBe(
      'base.version',
    );
    expect(snapshotError(() => applyDeltas(undefined, [junk(null)])).field).toBe('deltas[0]');
    expect(snapshotError(() => applyDeltas(undefined, withHole([delta()], 0))).field).toBe(
      'deltas[0]',
    );
    const noMessages = { ...delta(), messages: 5 };
    expect(snapshotError(() => applyDeltas(undefined, [junk(noMessages)])).field).toBe(
      'deltas[0].messages',
    );
    const noLog = { ...delta(), log: undefined };
    expect(snapshotError(() => applyDeltas(undefined, [junk(noLog)])).field).toBe('deltas[0].log');
    const badFrom = { ...delta(), from: { messages: 1n, log: 0 } };
    expect(snapshotError(() => applyDeltas(undefined, [junk(badFrom)])).field).toBe(
      'deltas[0].from',
    );
  });

  it('restore refuses holes in the log and in live lists', () => {
    const holed = { ...good(), log: withHole(good().log, 0) } as unknown as ConversationSnapshot;
    expect(snapshotError(() => ConversationManager.restore(holed, options)).field).toBe('log[0]');
    const sparseLive = JSON.parse(JSON.stringify(good()));
    sparseLive.log[0].live = new Array(1);
    expect(snapshotError(() => ConversationManager.restore(sparseLive, options)).field).toBe(
      'log[0].live[0]',
    );
    const bigint = JSON.parse(JSON.stringify(good()));
    bigint.messages[1].metadata = { n: 1n };
    expect(snapshotError(() => ConversationManager.restore(bigint, options)).field).toBe(
      'messages[1].metadata.n',
    );
  });

  it('restore refuses a non-boolean or junk field in a restore entry', () => {
    const m = manager();
    const cursor = m.cursor();
    m.applyOperation({ type: 'CLEAR' });
    m.revertTo(cursor);
    const snapshot = JSON.parse(JSON.stringify(m.snapshot()));
    snapshot.log.at(-1).batches = [null];
    const field = snapshotError(() => ConversationManager.restore(snapshot, options)).field;
    expect(field).toMatch(/^log\[\d+\]\.batches\[0\]$/);
  });
});

describe('typed errors for messages with junk content', () => {
  it('content of the wrong type', () => {
    refuse(
      (m) => m.addMessage(junk({ role: 'user', content: 5 } as unknown as LLMMessage)),
      'INVALID_MESSAGE',
      /content/,
    );
  });

  it('an operation object with an unknown type', () => {
    refuse(
      (m) => m.applyOperation({ type: 'NOPE' } as unknown as ContextOperation),
      'INVALID_ARGUMENT',
      /NOPE/,
    );
  });
});
