import { type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, END, messagesStateReducer, START, StateGraph } from '@langchain/langgraph';

/** One node that increments (and appends a message), a conditional edge back to itself. */
export async function langGraphLoop(n: number, withMessage: boolean): Promise<void> {
  const State = Annotation.Root({
    count: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
    messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode('inc', (state) => ({
      count: state.count + 1,
      ...(withMessage
        ? {
            messages: [
              new HumanMessage({ content: `tick ${state.count + 1}`, id: `m${state.count}` }),
            ],
          }
        : {}),
    }))
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (state) => (state.count < n ? 'inc' : END))
    .compile();
  const out = await graph.invoke({ count: 0 }, { recursionLimit: n + 10 });
  if (out.count !== n) throw new Error(`langgraph loop ended at ${out.count}`);
}
