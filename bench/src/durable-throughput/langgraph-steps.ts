import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import {
  Annotation,
  END,
  MemorySaver,
  messagesStateReducer,
  START,
  StateGraph,
} from '@langchain/langgraph';

// The durable-throughput workflow in LangGraph, for the peer row: per step a model node (answers
// after `delayMs`), a node counting the step and a routing node looping back, each a superstep
// and so a checkpoint, as Skein's LLM, VARIABLE and ROUTE nodes are. The checkpointer is
// MemorySaver: the one LangGraph ships in the package the bench depends on (its SQLite and
// PostgreSQL savers are separate packages, not installed here), so the row compares with
// Skein's in-memory store, not with the durable ones.

const State = Annotation.Root({
  n: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
});

function modelSteps(steps: number, delayMs: number) {
  return new StateGraph(State)
    .addNode('ask', async (state) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return {
        messages: [
          new HumanMessage({ content: `step ${state.n}`, id: `q${state.n}` }),
          new AIMessage({ content: 'ok', id: `a${state.n}` }),
        ],
      };
    })
    .addNode('note', (state) => ({ n: state.n + 1 }))
    .addNode('check', () => ({}))
    .addEdge(START, 'ask')
    .addEdge('ask', 'note')
    .addEdge('note', 'check')
    .addConditionalEdges('check', (state) => (state.n < steps ? 'ask' : END))
    .compile({ checkpointer: new MemorySaver() });
}

/** Runs `threads` LangGraph threads at once to the end; resolves with the wall time in ms. */
export async function langGraphThreadsAtOnce(
  threads: number,
  steps: number,
  delayMs: number,
): Promise<number> {
  const graph = modelSteps(steps, delayMs);
  const started = performance.now();
  const outs = await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      graph.invoke(
        { n: 0 },
        { configurable: { thread_id: `t-${i}` }, recursionLimit: 3 * steps + 10 },
      ),
    ),
  );
  const ms = performance.now() - started;
  for (const out of outs)
    if (out.n !== steps) throw new Error(`a LangGraph thread ended at step ${out.n}`);
  return ms;
}
