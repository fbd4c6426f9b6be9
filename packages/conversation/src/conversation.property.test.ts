import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { SkeinError } from './errors/skein-error.js';
import { defaultFormatToolDescription, isToolDescription } from './tool-description.js';
import type { LLMMessage, Role, ToolSpec } from './types.js';

// Model-based test: random sequences of operations run against ConversationManager and against a
// deliberately naive reference model (storage as a plain array, each batch a list of storage
// positions). After every step the stored and visible messages must agree, and the tool
// description guarantee must hold: a batch started with initial tools shows exactly one
// description, built from the initial tools as they were when its view was last built — which,
// after every call that builds a view, are the current ones.

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
  | { kind: 'insert'; position: number; text: string; system: boolean }
  | { kind: 'replace'; position: number; text: string }
  | { kind: 'filter'; roles: Role[]; mode: 'keep' | 'remove' }
  | { kind: 'rollback'; batch: number }
  | { kind: 'usage'; tokens: number }
  | { kind: 'toolset'; set: number }
  | { kind: 'indices'; picks: number[] }
  | { kind: 'reset' }
  | { kind: 'originalClear'; keep: boolean }
  | { kind: 'forge'; which: number }
  | { kind: 'restore' }
  | { kind: 'mark' }
  | { kind: 'revert' }
  | { kind: 'bad'; which: number };

const text = fc.string({ maxLength: 6 });
const op = <K extends Op['kind']>(kind: K, fields: Record<string, fc.Arbitrary<unknown>> = {}) =>
  fc.record({ kind: fc.constant(kind), ...fields }) as unknown as fc.Arbitrary<Op>;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: op('add', {
      role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
      text,
    }),
  },
  { weight: 3, arbitrary: op('exchange', { calls: fc.integer({ min: 1, max: 3 }), text }) },
  { weight: 2, arbitrary: op('start', { boundary: fc.nat(40), tools: fc.boolean() }) },
  { weight: 2, arbitrary: op('clear', { keep: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: op('truncate', {
      keep: fc.constantFrom('first' as const, 'last' as const),
      count: fc.nat(8),
      preserve: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: op('insert', { position: fc.nat(12), text, system: fc.boolean() }) },
  { weight: 1, arbitrary: op('replace', { position: fc.nat(12), text }) },
  {
    weight: 1,
    arbitrary: op('filter', {
      roles: fc.subarray(['system', 'user', 'assistant', 'tool'] as Role[]),
      mode: fc.constantFrom('keep' as const, 'remove' as const),
    }),
  },
  { weight: 1, arbitrary: op('rollback', { batch: fc.nat(6) }) },
  { weight: 1, arbitrary: op('usage', { tokens: fc.nat(100) }) },
  { weight: 2, arbitrary: op('toolset', { set: fc.nat(2) }) },
  { weight: 1, arbitrary: op('indices', { picks: fc.array(fc.nat(1000), { maxLength: 8 }) }) },
  { weight: 1, arbitrary: op('reset') },
  { weight: 1, arbitrary: op('originalClear', { keep: fc.boolean() }) },
  { weight: 1, arbitrary: op('forge', { which: fc.nat(3) }) },
  { weight: 1, arbitrary: op('restore') },
  { weight: 1, arbitrary: op('mark') },
  { weight: 1, arbitrary: op('revert') },
  { weight: 1, arbitrary: op('bad', { which: fc.nat(12) }) },
);

// ---- the reference model ---------------------------------------------------------------------

interface ModelBatch {
  live: number[];
  withTools: boolean;
  /** The initial tools read when this batch's view was last built (for the invariant). */
  describedWith: ToolSpec[];
}

interface Model {
  storage: LLMMessage[];
  batches: ModelBatch[];
  usage: number;
  tools: ToolSpec[];
  lastDesc: { position: number; content: string } | undefined;
  callCounter: number;
}

const top = (m: Model) => m.batches[m.batches.length - 1]!;
const isDesc = (msg: LLMMessage) => isToolDescription(msg);

function store(model: Model, message: LLMMessage): number {
  model.storage.push(message);
  const position = model.storage.length - 1;
  if (isDesc(message)) model.lastDesc = { position, content: message.content };
  return position;
}

/** `live` with exactly one description of the current tools (none without tools). */
function described(model: Model, live: number[]): number[] {
  const at = (p: number) => model.storage[p]!;
  const rest = live.filter((p) => !isDesc(at(p)));
  if (model.tools.length === 0) return rest;
  const content = defaultFormatToolDescription(model.tools);
  const descs = live.filter((p) => isDesc(at(p)));
  if (descs.length === 1 && at(descs[0]!).content === content) return live;
  let slot = 0;
  while (slot < rest.length && at(rest[slot]!).role === 'system') slot++;
  const position =
    model.lastDesc?.content === content
      ? model.lastDesc.position
      : store(model, {
          role: 'system',
          content,
          metadata: { kind: 'tool-description', tools: model.tools.map((t) => t.name) },
        });
  return [...rest.slice(0, slot), position, ...rest.slice(slot)];
}

/** Sets the top batch's view, kept described when it was started with initial tools. */
function setView(model: Model, live: number[]) {
  const batch = top(model);
  batch.live = batch.withTools ? described(model, live) : live;
  if (batch.withTools) batch.describedWith = model.tools;
}

function startBatch(model: Model, carried: number[], withTools: boolean) {
  model.batches.push({
    live: withTools ? described(model, carried) : carried,
    withTools,
    describedWith: model.tools,
  });
}

function refreshTop(model: Model) {
  if (top(model).withTools) setView(model, top(model).live);
}

/**
 * Groups a list into [assistant-with-calls + the answers right after it] or single messages,
 * scanning backwards: a run of tool messages belongs to the assistant before it as far as its
 * leading messages answer that assistant's calls; the rest are orphans (only INSERT, REPLACE,
 * setOriginalIndices and FILTER of single messages can make those).
 */
function groupsBackward(list: LLMMessage[]): number[][] {
  const groups: number[][] = [];
  let i = list.length - 1;
  while (i >= 0) {
    if (list[i]!.role !== 'tool') {
      groups.unshift([i]);
      i--;
      continue;
    }
    let j = i;
    while (j >= 0 && list[j]!.role === 'tool') j--;
    const tools = Array.from({ length: i - j }, (_, k) => j + 1 + k);
    const caller = list[j];
    const ids = new Set(caller?.toolCalls?.map((c) => c.id) ?? []);
    let answered = 0;
    while (answered < tools.length && ids.has(list[tools[answered]!]!.toolCallId!)) answered++;
    for (const orphan of tools.slice(answered).reverse()) groups.unshift([orphan]);
    if (caller?.toolCalls?.length) {
      groups.unshift([j, ...tools.slice(0, answered)]);
      i = j - 1;
    } else {
      for (const t of tools.slice(0, answered).reverse()) groups.unshift([t]);
      i = j;
    }
  }
  return groups;
}

function truncateModel(
  model: Model,
  live: number[],
  keep: 'first' | 'last',
  count: number,
  preserve: boolean,
): number[] {
  const pinned = (p: number) => {
    const x = model.storage[p]!;
    return isDesc(x) || (preserve && x.role === 'system');
  };
  const candidates = live.filter((p) => !pinned(p));
  const groups = groupsBackward(candidates.map((p) => model.storage[p]!));
  const ordered = keep === 'last' ? groups.reverse() : groups;
  const kept = new Set<number>();
  let used = 0;
  for (const g of ordered) {
    if (used + g.length > count) break;
    used += g.length;
    for (const k of g) kept.add(candidates[k]!);
  }
  return live.filter((p) => pinned(p) || kept.has(p));
}

function filterModel(model: Model, live: number[], roles: Role[], mode: 'keep' | 'remove') {
  const list = live.map((p) => model.storage[p]!);
  const pass = (k: number) =>
    isDesc(list[k]!) || roles.includes(list[k]!.role) === (mode === 'keep');
  const out: number[] = [];
  for (const g of groupsBackward(list)) {
    if (g.length > 1) {
      if (g.every(pass)) out.push(...g);
    } else if (pass(g[0]!)) out.push(g[0]!);
  }
  return out.sort((a, b) => a - b).map((k) => live[k]!);
}

// ---- the original design's clear handler, verbatim (see original-clear-handler.test.ts) -------

// biome-ignore format: kept exactly as the original design wrote it
function handleClearOperation(
  conversationManager: ConversationManager,
  config?: { keepSystemMessage?: boolean },
) {
  const keepSystemMessage = config?.keepSystemMessage ?? true;
  const allMessages = conversationManager.getAllMessages();
  if (keepSystemMessage) {
    const systemMessageIndices = allMessages
      .map((msg, index) => (msg.role === 'system' ? index : -1))
      .filter((index) => index !== -1);
    if (systemMessageIndices.length > 0) {
      conversationManager.setOriginalIndices(systemMessageIndices);
      conversationManager.startNewBatchWithInitialTools(Math.min(...systemMessageIndices));
    } else {
      conversationManager.getIndexManager().reset();
      conversationManager.startNewBatchWithInitialTools(0);
    }
  } else {
    conversationManager.getIndexManager().reset();
    conversationManager.startNewBatchWithInitialTools(0);
  }
}

/** The same handler, on the model. */
function originalClearModel(model: Model, keep: boolean) {
  const systems = model.storage.flatMap((m, p) => (m.role === 'system' ? [p] : []));
  if (keep && systems.length > 0) {
    setView(model, systems);
    const boundary = Math.min(...systems);
    startBatch(
      model,
      top(model).live.filter((p) => p >= boundary),
      true,
    );
  } else {
    setView(model, []);
    startBatch(model, top(model).live.slice(), true);
  }
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

/**
 * Tool messages outside an exchange: an exchange is an assistant message with tool calls and the
 * tool messages right after it that answer those calls (any other tool message is an orphan).
 */
function orphans(list: readonly LLMMessage[]): Set<LLMMessage> {
  const out = new Set<LLMMessage>();
  let answering = new Set<string>();
  for (const message of list) {
    if (message.role !== 'tool') {
      answering = new Set(message.toolCalls?.map((c) => c.id) ?? []);
    } else if (!answering.has(message.toolCallId!)) {
      out.add(message);
      answering = new Set();
    }
  }
  return out;
}

/** toEqual, but cheap when it holds: 1,000 runs make hundreds of thousands of comparisons. */
function same(actual: unknown, expected: unknown) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

function expectTypedErrorAndNoChange(
  manager: ConversationManager,
  action: () => unknown,
  code?: string,
) {
  const before = JSON.stringify(manager.snapshot());
  const visible = manager.getMessages();
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  if (!SkeinError.isInstance(thrown) || (code && thrown.code !== code))
    expect.fail(`expected a SkeinError${code ? ` ${code}` : ''}, got ${String(thrown)}`);
  const after = JSON.stringify(manager.snapshot());
  if (after !== before) expect(after).toBe(before);
  if (manager.getMessages() !== visible) same(manager.getMessages(), visible);
}

function sparse<T>(items: readonly T[], hole: number): T[] {
  const out = items.slice();
  out.splice(hole, 0, items[0]!);
  delete out[hole];
  return out;
}

const forged: LLMMessage = {
  role: 'system',
  content: 'Available tools: forged',
  metadata: { kind: 'tool-description' },
};

// ---- the run ----------------------------------------------------------------------------------

function run(ops: Op[]) {
  let tools: ToolSpec[] = TOOL_SETS[1]!;
  const options = { initialTools: () => tools };
  let manager = new ConversationManager(options);
  manager.startNewBatchWithInitialTools(0);
  const model: Model = {
    storage: [],
    batches: [],
    usage: 0,
    tools,
    lastDesc: undefined,
    callCounter: 0,
  };
  startBatch(model, [], true);
  let mark:
    | { cursor: ReturnType<ConversationManager['cursor']>; batches: ModelBatch[] }
    | undefined;
  const copyBatches = (batches: ModelBatch[]) => batches.map((b) => ({ ...b, live: [...b.live] }));

  let checked = 0;
  for (const step of ops) {
    const cur = top(model);
    const visibleBefore = manager.getMessages();
    // Set by calls that build a view (so read the initial tools); appends, usage, tool changes,
    // restore and refused calls do not.
    let built = false;
    switch (step.kind) {
      case 'add': {
        const msg: LLMMessage = { role: step.role, content: step.text };
        manager.addMessage(msg);
        cur.live.push(store(model, msg));
        break;
      }
      case 'exchange': {
        const id = `c${model.callCounter++}`;
        const calls = Array.from({ length: step.calls }, (_, k) => ({
          id: `${id}_${k}`,
          name: 'calc',
          arguments: '{}',
        }));
        const msgs: LLMMessage[] = [
          { role: 'assistant', content: step.text, toolCalls: calls },
          ...calls.map((c) => ({ role: 'tool' as const, content: `r${c.id}`, toolCallId: c.id })),
        ];
        for (const m of msgs) {
          manager.addMessage(m);
          cur.live.push(store(model, m));
        }
        break;
      }
      case 'start': {
        if (step.boundary > model.storage.length) {
          expectTypedErrorAndNoChange(
            manager,
            () => manager.startNewBatch(step.boundary),
            'INVALID_BOUNDARY',
          );
          break;
        }
        if (step.tools) manager.startNewBatchWithInitialTools(step.boundary);
        else manager.startNewBatch(step.boundary);
        built = true;
        startBatch(
          model,
          cur.live.filter((p) => p >= step.boundary),
          step.tools,
        );
        break;
      }
      case 'clear': {
        manager.applyOperation({ type: 'CLEAR', keepSystemMessage: step.keep });
        built = true;
        const kept = step.keep
          ? cur.live.filter(
              (p) => model.storage[p]!.role === 'system' && !isDesc(model.storage[p]!),
            )
          : [];
        startBatch(model, kept, true);
        break;
      }
      case 'truncate': {
        manager.applyOperation({
          type: 'TRUNCATE',
          keep: step.keep,
          count: step.count,
          preserveSystem: step.preserve,
        });
        built = true;
        setView(model, truncateModel(model, cur.live, step.keep, step.count, step.preserve));
        break;
      }
      case 'filter': {
        manager.applyOperation({ type: 'FILTER', roles: step.roles, mode: step.mode });
        built = true;
        setView(model, filterModel(model, cur.live, step.roles, step.mode));
        break;
      }
      case 'insert':
      case 'replace': {
        const isInsert = step.kind === 'insert';
        const max = isInsert ? cur.live.length : cur.live.length - 1;
        const role = step.kind === 'insert' && step.system ? 'system' : 'user';
        const msg: LLMMessage = { role, content: step.text };
        const type = isInsert ? 'INSERT' : 'REPLACE';
        const apply = () => manager.applyOperation({ type, position: step.position, message: msg });
        if (step.position > max) {
          expectTypedErrorAndNoChange(manager, apply, 'POSITION_NOT_VISIBLE');
          break;
        }
        if (!isInsert && isDesc(model.storage[cur.live[step.position]!]!)) {
          expectTypedErrorAndNoChange(manager, apply, 'TOOL_DESCRIPTION_RESERVED');
          break;
        }
        apply();
        built = true;
        const live = cur.live.slice();
        live.splice(step.position, isInsert ? 0 : 1, store(model, msg));
        setView(model, live);
        break;
      }
      case 'rollback': {
        if (step.batch >= model.batches.length) {
          expectTypedErrorAndNoChange(
            manager,
            () => manager.rollbackToBatch(step.batch),
            'UNKNOWN_BATCH',
          );
          break;
        }
        manager.rollbackToBatch(step.batch);
        built = true;
        model.batches.length = step.batch + 1;
        refreshTop(model);
        break;
      }
      case 'usage':
        manager.recordUsage({
          promptTokens: step.tokens,
          completionTokens: 1,
          totalTokens: step.tokens + 1,
        });
        model.usage += step.tokens + 1;
        break;
      case 'toolset':
        tools = TOOL_SETS[step.set]!;
        model.tools = tools;
        break;
      case 'indices': {
        const total = model.storage.length;
        const positions = [...new Set(step.picks.map((x) => x % total))];
        manager.setOriginalIndices(positions);
        built = true;
        setView(model, positions);
        break;
      }
      case 'reset':
        manager.getIndexManager().reset();
        built = true;
        setView(model, []);
        break;
      case 'originalClear':
        handleClearOperation(manager, { keepSystemMessage: step.keep });
        built = true;
        originalClearModel(model, step.keep);
        break;
      case 'forge': {
        const descAt = cur.live.findIndex((p) => isDesc(model.storage[p]!));
        const attempts: Array<() => unknown> = [
          () => manager.addMessage(forged),
          () => manager.applyOperation({ type: 'INSERT', position: 0, message: forged }),
          () => manager.applyOperation({ type: 'REPLACE', position: 0, message: forged }),
          () =>
            manager.applyOperation({
              type: 'REPLACE',
              position: descAt,
              message: { role: 'user', content: 'x' },
            }),
        ];
        if (step.which === 3 && descAt < 0) break;
        const code =
          step.which === 2 && cur.live.length === 0
            ? 'POSITION_NOT_VISIBLE'
            : 'TOOL_DESCRIPTION_RESERVED';
        expectTypedErrorAndNoChange(manager, attempts[step.which]!, code);
        break;
      }
      case 'restore': {
        const snapshot = JSON.parse(JSON.stringify(manager.snapshot()));
        const restored = ConversationManager.restore(snapshot, options);
        same(restored.snapshot(), manager.snapshot());
        same(restored.listBatches(), manager.listBatches());
        same(restored.getUsage(), manager.getUsage());
        manager = restored;
        break;
      }
      case 'mark':
        mark = { cursor: manager.cursor(), batches: copyBatches(model.batches) };
        break;
      case 'revert': {
        if (!mark) break;
        manager.revertTo(mark.cursor);
        built = true;
        model.batches = copyBatches(mark.batches);
        refreshTop(model);
        break;
      }
      case 'bad': {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        const call = { id: 'z', name: 'calc', arguments: '{}' };
        const bad: Array<() => unknown> = [
          () => manager.startNewBatch(-1),
          () => manager.rollbackToBatch(99),
          () => manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: -2 }),
          () => manager.addMessage({ role: 'robot', content: 'x' } as unknown as LLMMessage),
          () => manager.addMessage({ role: 'tool', content: 'x' }),
          () => manager.applyOperation({ type: 'TRUNCATE', keep: 'first', count: 1.5 }),
          () => manager.setOriginalIndices(new Array(3)),
          () => manager.setOriginalIndices([0, 0]),
          () =>
            manager.applyOperation({
              type: 'BATCH_MANAGEMENT',
              action: 'start',
              withInitialTools: 'no' as unknown as boolean,
            }),
          () => manager.addMessage({ role: 'user', content: 'x', metadata: { n: 1n } }),
          () => manager.addMessage({ role: 'user', content: 'x', metadata: cyclic }),
          () =>
            manager.addMessage({
              role: 'assistant',
              content: '',
              toolCalls: sparse([call, { ...call, id: 'y' }], 1),
            }),
          () => manager.startNewBatchWithInitialTools(model.storage.length + 1),
        ];
        expectTypedErrorAndNoChange(manager, bad[step.which]!);
        break;
      }
    }

    // Agreement with the model: storage (it only grows, so the new tail), the view, batches, usage.
    same(manager.getTotalMessageCount(), model.storage.length);
    same(view(manager.getAllMessages().slice(checked)), view(model.storage.slice(checked)));
    checked = model.storage.length;
    const now = top(model);
    same(view(manager.getMessages()), view(now.live.map((p) => model.storage[p]!)));
    same(manager.getIndexManager().originalIndices, now.live);
    same(
      manager.listBatches().map((b) => b.withInitialTools),
      model.batches.map((b) => b.withTools),
    );
    same(manager.getUsage().total.totalTokens, model.usage);

    // The guarantee, after every call.
    if (now.withTools) {
      const shown = manager.getMessages().filter(isDesc);
      const expected = now.describedWith.length
        ? [defaultFormatToolDescription(now.describedWith)]
        : [];
      same(
        shown.map((d) => d.content),
        expected,
      );
      if (built && now.describedWith !== tools) expect(now.describedWith).toBe(tools);
    }
    // TRUNCATE and FILTER never create orphans.
    if (step.kind === 'truncate' || step.kind === 'filter') {
      const was = orphans(visibleBefore);
      for (const o of orphans(manager.getMessages()))
        if (!was.has(o)) expect.fail(`TRUNCATE/FILTER orphaned ${JSON.stringify(o)}`);
    }
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
