import { type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { messagesStateReducer } from '@langchain/langgraph';
import { ConversationManager, type LLMMessage } from '@skein/conversation';
import { type BenchRow, measure } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 2's benchmark: appending one message at a time, reading the visible window with a huge
// history behind it, and starting batches / clearing with a million stored messages.

const SUITE = 'conversation';
const tools = [
  { name: 'calculator', description: 'Evaluates arithmetic', parameters: { type: 'object' } },
  { name: 'clock', description: 'Tells the time', parameters: { type: 'object' } },
];

function messages(n: number): LLMMessage[] {
  return Array.from({ length: n }, (_, i) => ({ role: 'user', content: `message ${i}` }));
}

function filledManager(stored: number, visible: number): ConversationManager {
  const manager = new ConversationManager({ initialTools: () => tools });
  manager.startNewBatchWithInitialTools(0);
  for (let i = 0; i < stored; i++) manager.addMessage({ role: 'user', content: `m${i}` });
  // Keep only the last `visible` messages in view: the rest is history.
  manager.startNewBatchWithInitialTools(manager.getMessageCount() - visible);
  return manager;
}

async function appendRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of [10_000, 100_000]) {
    const input = messages(n);
    rows.push(
      await measure(
        {
          suite: SUITE,
          case: `append ${n}`,
          subject: 'Skein ConversationManager.addMessage',
          ops: n,
        },
        () => new ConversationManager(),
        (manager) => {
          for (const m of input) manager.addMessage(m);
        },
      ),
    );
    rows.push(
      await measure(
        { suite: SUITE, case: `append ${n}`, subject: 'plain array push', ops: n },
        () => [] as LLMMessage[],
        (array) => {
          for (const m of input) array.push(m);
        },
      ),
    );
  }
  // LangGraph's reducer copies the whole list per call: quadratic. 100k would take ~25 minutes,
  // so it runs at 2.5k, 5k and 10k, which shows the growth.
  for (const n of [2_500, 5_000, 10_000]) {
    const input: BaseMessage[] = Array.from(
      { length: n },
      (_, i) => new HumanMessage({ content: `message ${i}`, id: `m${i}` }),
    );
    rows.push(
      await measure(
        {
          suite: SUITE,
          case: `append ${n}`,
          subject: 'LangGraph messagesStateReducer',
          ops: n,
          note: 'called once per message, as a graph does',
        },
        () => ({ state: [] as BaseMessage[] }),
        (holder) => {
          for (const m of input) holder.state = messagesStateReducer(holder.state, [m]);
        },
        { warmup: 0, runs: n >= 10_000 ? 1 : 3 },
      ),
    );
  }
  return rows;
}

async function readRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const reads = 10_000;
  for (const stored of [10_000, 1_000_000]) {
    const manager = filledManager(stored, 100);
    rows.push(
      await measure(
        {
          suite: SUITE,
          case: `getMessages, ${stored} stored, 100 visible`,
          subject: 'Skein getMessages (cached view)',
          ops: reads,
        },
        () => manager,
        (m) => {
          for (let i = 0; i < reads; i++) m.getMessages();
        },
      ),
    );
    // After a change the view is rebuilt: append + read, with the window trimmed back to 100
    // before each run so every run reads the same size.
    const rounds = 1_000;
    rows.push(
      await measure(
        {
          suite: SUITE,
          case: `getMessages, ${stored} stored, 100 visible`,
          subject: 'Skein addMessage + getMessages (view rebuilt)',
          ops: rounds,
          note: 'per round: append, read, trim back to 100',
        },
        () => {
          manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 100 });
          return manager;
        },
        (m) => {
          for (let i = 0; i < rounds; i++) {
            m.addMessage({ role: 'user', content: 'x' });
            m.getMessages();
            m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 100 });
          }
        },
      ),
    );
  }
  return rows;
}

async function batchRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const stored = 1_000_000;
  const history = new ConversationManager({ initialTools: () => tools });
  history.startNewBatchWithInitialTools(0);
  for (let i = 0; i < stored; i++) history.addMessage({ role: 'user', content: `m${i}` });
  const all = history.getMessageCount();
  const ops = 100;
  rows.push(
    await measure(
      {
        suite: SUITE,
        case: `1M stored, ${all} visible`,
        subject: 'startNewBatchWithInitialTools',
        ops,
        note: 'each followed by a rollback to the full view',
      },
      () => history,
      (m) => {
        for (let i = 0; i < ops; i++) {
          m.startNewBatchWithInitialTools();
          m.rollbackToBatch(0);
        }
      },
    ),
  );
  rows.push(
    await measure(
      {
        suite: SUITE,
        case: `1M stored, ${all} visible`,
        subject: 'CLEAR keepSystemMessage=false',
        ops,
      },
      () => history,
      (m) => {
        for (let i = 0; i < ops; i++) {
          m.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
          m.rollbackToBatch(0);
        }
      },
    ),
  );
  const clearOps = 10;
  rows.push(
    await measure(
      {
        suite: SUITE,
        case: `1M stored, ${all} visible`,
        subject: 'CLEAR keepSystemMessage=true',
        ops: clearOps,
        note: 'scans the visible list for system messages',
      },
      () => history,
      (m) => {
        for (let i = 0; i < clearOps; i++) {
          m.applyOperation({ type: 'CLEAR', keepSystemMessage: true });
          m.rollbackToBatch(0);
        }
      },
    ),
  );
  const small = filledManager(stored, 100);
  rows.push(
    await measure(
      {
        suite: SUITE,
        case: '1M stored, 100 visible',
        subject: 'CLEAR keepSystemMessage=true',
        ops,
      },
      () => small,
      (m) => {
        for (let i = 0; i < ops; i++) {
          m.applyOperation({ type: 'CLEAR', keepSystemMessage: true });
          m.rollbackToBatch(m.currentBatch - 1);
        }
      },
    ),
  );
  return rows;
}

function find(rows: readonly BenchRow[], caseName: string, subject: string): BenchRow | undefined {
  return rows.find((r) => r.case === caseName && r.subject === subject);
}

export const conversationSuite: BenchSuite = {
  name: SUITE,
  async run() {
    return [...(await appendRows()), ...(await readRows()), ...(await batchRows())];
  },
  summarize(rows) {
    const skein10k = find(rows, 'append 10000', 'Skein ConversationManager.addMessage');
    const skein100k = find(rows, 'append 100000', 'Skein ConversationManager.addMessage');
    const lang10k = find(rows, 'append 10000', 'LangGraph messagesStateReducer');
    const read10k = find(
      rows,
      'getMessages, 10000 stored, 100 visible',
      'Skein addMessage + getMessages (view rebuilt)',
    );
    const read1m = find(
      rows,
      'getMessages, 1000000 stored, 100 visible',
      'Skein addMessage + getMessages (view rebuilt)',
    );
    const lines: string[] = [];
    if (skein10k && skein100k) {
      const growth = skein100k.totalMs / skein10k.totalMs;
      lines.push(
        `addMessage: ${skein10k.usPerOp.toFixed(3)} µs/msg at 10k, ${skein100k.usPerOp.toFixed(3)} µs/msg at 100k; 100k/10k time = ${growth.toFixed(1)}x (linear = 10x). Target ≤ 1 µs: ${Math.max(skein10k.usPerOp, skein100k.usPerOp) <= 1 ? 'met' : 'NOT met'}.`,
      );
    }
    if (skein10k && lang10k) {
      const ratio = lang10k.usPerOp / skein10k.usPerOp;
      lines.push(
        `At 10k, LangGraph's reducer costs ${lang10k.usPerOp.toFixed(0)} µs/msg: Skein is ${ratio.toFixed(0)}x faster (target ≥ 1000x: ${ratio >= 1000 ? 'met' : 'NOT met'}).`,
      );
    }
    if (read10k && read1m) {
      const ratio = read1m.usPerOp / read10k.usPerOp;
      lines.push(
        `View rebuild with 1M vs 10k stored: ${ratio.toFixed(2)}x (target within 2x: ${ratio <= 2 && ratio >= 0.5 ? 'met' : 'NOT met'}).`,
      );
    }
    return lines.join('\n');
  },
};
