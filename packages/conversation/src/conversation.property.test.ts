import type { LLMMessage, ToolSpec } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import {
  expectTypedErrorAndNoChange,
  forged,
  orphans,
  same,
  sparse,
  view,
} from './model-test-checks.js';
import { type Op, opArb, TOOL_SETS } from './model-test-operations.js';
import {
  filterModel,
  isDesc,
  type Model,
  type ModelBatch,
  originalClearModel,
  refreshTop,
  setView,
  startBatch,
  store,
  summarizeModel,
  top,
  truncateModel,
} from './model-test-reference.js';
import { handleClearOperation } from './original-clear-handler.js';
import { defaultFormatToolDescription } from './tool-description.js';

// Model-based test: random sequences of operations run against ConversationManager and against a
// deliberately naive reference model (storage as a plain array, each batch a list of storage
// positions). After every step the stored and visible messages must agree, and the tool
// description guarantee must hold: a batch started with initial tools shows exactly one
// description, built from the initial tools as they were when its view was last built — which,
// after every call that builds a view, are the current ones.

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
      case 'summarize': {
        const role = step.system ? 'system' : 'user';
        manager.applyOperation({
          type: 'SUMMARIZE',
          summary: step.text,
          keepTurns: step.keepTurns,
          role,
        });
        built = true;
        summarizeModel(model, step.keepTurns, role, step.text);
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
