import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { SkeinError } from './errors/skein-error.js';
import { defaultFormatToolDescription, isToolDescription } from './tool-description.js';
import type { LLMMessage, Role, ToolSpec } from './types.js';

// Model-based test: random sequences of operations run against ConversationManager and against a
// deliberately naive reference model holding message values per batch. After every step the
// visible messages must agree, and the invariants of the design must hold.

const TOOL_SETS: ToolSpec[][] = [
  [],
  [{ name: 'calc', description: 'math', parameters: {} }],
  [
    { name: 'calc', description: 'math', parameters: {} },
    { name: 'clock', description: 'time', parameters: {} },
  ],
];

type Op =
  | { kind: 'add'; role: 'system' | 'user' | 'assistant'; text: string }
  | { kind: 'exchange'; calls: number; text: string }
  | { kind: 'start'; boundary: number; tools: boolean }
  | { kind: 'clear'; keep: boolean }
  | { kind: 'truncate'; keep: 'first' | 'last'; count: number; preserve: boolean }
  | { kind: 'insert'; position: number; text: string }
  | { kind: 'replace'; position: number; text: string }
  | { kind: 'filter'; roles: Role[]; mode: 'keep' | 'remove' }
  | { kind: 'rollback'; batch: number }
  | { kind: 'usage'; tokens: number }
  | { kind: 'toolset'; set: number }
  | { kind: 'restore' }
  | { kind: 'mark' }
  | { kind: 'revert' }
  | { kind: 'bad'; which: number };

const text = fc.string({ maxLength: 6 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
      text,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('exchange' as const),
      calls: fc.integer({ min: 1, max: 3 }),
      text,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      boundary: fc.nat(12),
      tools: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('clear' as const), keep: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('truncate' as const),
      keep: fc.constantFrom('first' as const, 'last' as const),
      count: fc.nat(8),
      preserve: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('insert' as const), position: fc.nat(12), text }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), position: fc.nat(12), text }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('filter' as const),
      roles: fc.subarray(['system', 'user', 'assistant', 'tool'] as Role[]),
      mode: fc.constantFrom('keep' as const, 'remove' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollback' as const), batch: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('usage' as const), tokens: fc.nat(100) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('toolset' as const), set: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mark' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revert' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad' as const), which: fc.nat(5) }) },
);

// ---- the reference model ---------------------------------------------------------------------

interface Model {
  batches: LLMMessage[][];
  usage: number;
  tools: ToolSpec[];
  callCounter: number;
}

const current = (m: Model) => m.batches[m.batches.length - 1]!;
const isDesc = (msg: LLMMessage) => isToolDescription(msg);

function withDescription(model: Model, list: LLMMessage[]): LLMMessage[] {
  if (model.tools.length === 0) return list.filter((x) => !isDesc(x));
  const content = defaultFormatToolDescription(model.tools);
  const descs = list.filter(isDesc);
  if (descs.length === 1 && descs[0]!.content === content) return list;
  const rest = list.filter((x) => !isDesc(x));
  let slot = 0;
  while (slot < rest.length && rest[slot]!.role === 'system') slot++;
  const desc: LLMMessage = {
    role: 'system',
    content,
    metadata: { kind: 'tool-description', tools: model.tools.map((t) => t.name) },
  };
  return [...rest.slice(0, slot), desc, ...rest.slice(slot)];
}

/**
 * Groups a list into [assistant-with-calls + the answers right after it] or single messages,
 * scanning backwards: a run of tool messages belongs to the assistant before it as far as its
 * leading messages answer that assistant's calls; the rest are orphans (only INSERT, REPLACE and
 * FILTER of single messages can make those).
 */
function groupsBackward(list: LLMMessage[]): LLMMessage[][] {
  const groups: LLMMessage[][] = [];
  let i = list.length - 1;
  while (i >= 0) {
    if (list[i]!.role !== 'tool') {
      groups.unshift([list[i]!]);
      i--;
      continue;
    }
    let j = i;
    while (j >= 0 && list[j]!.role === 'tool') j--;
    const tools = list.slice(j + 1, i + 1);
    const caller = list[j];
    const ids = new Set(caller?.toolCalls?.map((c) => c.id) ?? []);
    let answered = 0;
    while (answered < tools.length && ids.has(tools[answered]!.toolCallId!)) answered++;
    for (const orphan of tools.slice(answered).reverse()) groups.unshift([orphan]);
    if (caller?.toolCalls?.length) {
      groups.unshift([caller, ...tools.slice(0, answered)]);
      i = j - 1;
    } else {
      for (const t of tools.slice(0, answered).reverse()) groups.unshift([t]);
      i = j;
    }
  }
  return groups;
}

function truncateModel(
  list: LLMMessage[],
  keep: 'first' | 'last',
  count: number,
  preserve: boolean,
) {
  const pinned = (x: LLMMessage) => isDesc(x) || (preserve && x.role === 'system');
  const candidates = list.filter((x) => !pinned(x));
  const groups = groupsBackward(candidates);
  const ordered = keep === 'last' ? groups.reverse() : groups;
  const kept = new Set<LLMMessage>();
  let used = 0;
  for (const g of ordered) {
    if (used + g.length > count) break;
    used += g.length;
    for (const x of g) kept.add(x);
  }
  return list.filter((x) => pinned(x) || kept.has(x));
}

function filterModel(list: LLMMessage[], roles: Role[], mode: 'keep' | 'remove') {
  const pass = (x: LLMMessage) => isDesc(x) || roles.includes(x.role) === (mode === 'keep');
  const out: LLMMessage[] = [];
  for (const g of groupsBackward(list)) {
    if (g.length > 1) {
      if (g.every(pass)) out.push(...g);
    } else if (pass(g[0]!)) out.push(g[0]!);
  }
  return out;
}

// ---- comparison helpers ------------------------------------------------------------------------

const view = (list: readonly LLMMessage[]) =>
  list.map((x) => ({
    role: x.role,
    content: x.content,
    toolCallId: x.toolCallId,
    calls: x.toolCalls?.map((c) => c.id),
    kind: x.metadata?.kind,
  }));

/** Positions of tool messages that do not follow an assistant calling them. */
function orphans(list: readonly LLMMessage[]): Set<LLMMessage> {
  const out = new Set<LLMMessage>();
  for (let i = 0; i < list.length; i++) {
    if (list[i]!.role !== 'tool') continue;
    let j = i - 1;
    while (j >= 0 && list[j]!.role === 'tool') j--;
    if (!list[j]?.toolCalls?.some((c) => c.id === list[i]!.toolCallId)) out.add(list[i]!);
  }
  return out;
}

function expectTypedErrorAndNoChange(manager: ConversationManager, action: () => unknown) {
  const before = JSON.stringify(manager.snapshot());
  const visible = manager.getMessages();
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(SkeinError.isInstance(thrown)).toBe(true);
  expect(JSON.stringify(manager.snapshot())).toBe(before);
  expect(manager.getMessages()).toEqual(visible);
}

// ---- the run ----------------------------------------------------------------------------------

function run(ops: Op[]) {
  let tools: ToolSpec[] = TOOL_SETS[1]!;
  const options = { initialTools: () => tools };
  let manager = new ConversationManager(options);
  manager.startNewBatchWithInitialTools(0);
  const model: Model = {
    batches: [withDescription({ batches: [], usage: 0, tools, callCounter: 0 }, [])],
    usage: 0,
    tools,
    callCounter: 0,
  };
  let stored: LLMMessage[] = [...manager.getAllMessages()];
  let mark:
    | { cursor: ReturnType<ConversationManager['cursor']>; batches: LLMMessage[][] }
    | undefined;

  for (const op of ops) {
    const cur = current(model);
    const visibleBefore = manager.getMessages();
    switch (op.kind) {
      case 'add': {
        const msg: LLMMessage = { role: op.role, content: op.text };
        manager.addMessage(msg);
        cur.push(msg);
        break;
      }
      case 'exchange': {
        const id = `c${model.callCounter++}`;
        const calls = Array.from({ length: op.calls }, (_, k) => ({
          id: `${id}_${k}`,
          name: 'calc',
          arguments: '{}',
        }));
        const msgs: LLMMessage[] = [
          { role: 'assistant', content: op.text, toolCalls: calls },
          ...calls.map((c) => ({ role: 'tool' as const, content: `r${c.id}`, toolCallId: c.id })),
        ];
        for (const m of msgs) {
          manager.addMessage(m);
          cur.push(m);
        }
        break;
      }
      case 'start': {
        if (op.boundary > cur.length) {
          expectTypedErrorAndNoChange(manager, () => manager.startNewBatch(op.boundary));
          break;
        }
        if (op.tools) manager.startNewBatchWithInitialTools(op.boundary);
        else manager.startNewBatch(op.boundary);
        const carried = cur.slice(op.boundary);
        model.batches.push(op.tools ? withDescription(model, carried) : carried);
        if (op.tools) {
          expect(manager.getMessages().filter(isDesc)).toHaveLength(tools.length > 0 ? 1 : 0);
        }
        break;
      }
      case 'clear': {
        manager.applyOperation({ type: 'CLEAR', keepSystemMessage: op.keep });
        const kept = op.keep ? cur.filter((x) => x.role === 'system' && !isDesc(x)) : [];
        model.batches.push(withDescription(model, kept));
        const shown = manager.getMessages();
        expect(shown.filter(isDesc)).toHaveLength(tools.length > 0 ? 1 : 0);
        if (op.keep) {
          const systems = visibleBefore.filter((x) => x.role === 'system' && !isDesc(x));
          for (const s of systems) expect(shown).toContain(s);
        }
        break;
      }
      case 'truncate': {
        manager.applyOperation({
          type: 'TRUNCATE',
          keep: op.keep,
          count: op.count,
          preserveSystem: op.preserve,
        });
        model.batches[model.batches.length - 1] = truncateModel(
          cur,
          op.keep,
          op.count,
          op.preserve,
        );
        break;
      }
      case 'filter': {
        manager.applyOperation({ type: 'FILTER', roles: op.roles, mode: op.mode });
        model.batches[model.batches.length - 1] = filterModel(cur, op.roles, op.mode);
        break;
      }
      case 'insert':
      case 'replace': {
        const max = op.kind === 'insert' ? cur.length : cur.length - 1;
        const msg: LLMMessage = { role: 'user', content: op.text };
        const type = op.kind === 'insert' ? 'INSERT' : 'REPLACE';
        if (op.position > max) {
          expectTypedErrorAndNoChange(manager, () =>
            manager.applyOperation({ type, position: op.position, message: msg }),
          );
          break;
        }
        manager.applyOperation({ type, position: op.position, message: msg });
        cur.splice(op.position, op.kind === 'insert' ? 0 : 1, msg);
        break;
      }
      case 'rollback': {
        if (op.batch >= model.batches.length) {
          expectTypedErrorAndNoChange(manager, () => manager.rollbackToBatch(op.batch));
          break;
        }
        manager.rollbackToBatch(op.batch);
        model.batches.length = op.batch + 1;
        break;
      }
      case 'usage':
        manager.recordUsage({
          promptTokens: op.tokens,
          completionTokens: 1,
          totalTokens: op.tokens + 1,
        });
        model.usage += op.tokens + 1;
        break;
      case 'toolset':
        tools = TOOL_SETS[op.set]!;
        model.tools = tools;
        break;
      case 'restore': {
        const snapshot = JSON.parse(JSON.stringify(manager.snapshot()));
        const restored = ConversationManager.restore(snapshot, options);
        expect(restored.snapshot()).toEqual(manager.snapshot());
        expect(restored.listBatches()).toEqual(manager.listBatches());
        expect(restored.getUsage()).toEqual(manager.getUsage());
        manager = restored;
        break;
      }
      case 'mark':
        mark = { cursor: manager.cursor(), batches: model.batches.map((b) => [...b]) };
        break;
      case 'revert': {
        if (!mark) break;
        manager.revertTo(mark.cursor);
        model.batches = mark.batches.map((b) => [...b]);
        break;
      }
      case 'bad': {
        const bad: Array<() => unknown> = [
          () => manager.startNewBatch(-1),
          () => manager.rollbackToBatch(99),
          () => manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: -2 }),
          () => manager.addMessage({ role: 'robot', content: 'x' } as unknown as LLMMessage),
          () => manager.addMessage({ role: 'tool', content: 'x' }),
          () => manager.applyOperation({ type: 'TRUNCATE', keep: 'first', count: 1.5 }),
        ];
        expectTypedErrorAndNoChange(manager, bad[op.which]!);
        break;
      }
    }

    // Agreement with the model.
    expect(view(manager.getMessages())).toEqual(view(current(model)));
    expect(manager.currentBatch).toBe(model.batches.length - 1);
    expect(manager.getUsage().total.totalTokens).toBe(model.usage);
    // Storage only grows and never changes.
    const all = manager.getAllMessages();
    expect(all.length).toBeGreaterThanOrEqual(stored.length);
    // Same frozen objects as before (restore builds new ones, so compare by value there).
    for (let i = 0; i < stored.length; i++) {
      if (all[i] !== stored[i] && JSON.stringify(all[i]) !== JSON.stringify(stored[i]))
        expect(all[i]).toEqual(stored[i]);
    }
    stored = [...all];
    // TRUNCATE and FILTER never create orphans.
    if (op.kind === 'truncate' || op.kind === 'filter') {
      const was = orphans(visibleBefore);
      for (const o of orphans(manager.getMessages())) expect(was.has(o)).toBe(true);
    }
    // Every visible message is stored.
    const storedSet = new Set(all);
    expect(manager.getMessages().every((v) => storedSet.has(v))).toBe(true);
  }
}

describe('ConversationManager against a reference model', () => {
  it('agrees after every step of random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 50, maxLength: 80 }), (ops) => {
        run(ops);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 1000) },
    );
  }, 180_000);
});
