import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';

/**
 * The documented map-reduce, compiled once (as an app does): a conditional edge returns one `Send`
 * per item into `double`, whose results a concat reducer gathers. Each result carries its index,
 * so they are put back in item order at the end (the reducer sees them in completion order).
 */
export function prepareLangGraphSend(): (items: readonly number[]) => Promise<number[]> {
  const State = Annotation.Root({
    items: Annotation<number[]>({ reducer: (_, b) => b, default: () => [] }),
    results: Annotation<[number, number][]>({
      reducer: (a, b) => a.concat(b),
      default: () => [],
    }),
  });
  const Item = Annotation.Root({ index: Annotation<number>(), value: Annotation<number>() });
  const graph = new StateGraph(State)
    .addNode(
      'double',
      async (s: typeof Item.State) => ({ results: [[s.index, s.value * 2]] as [number, number][] }),
      { input: Item },
    )
    .addConditionalEdges(
      START,
      (s) => s.items.map((value, index) => new Send('double', { index, value })),
      ['double'],
    )
    .addEdge('double', END)
    .compile();
  return async (items) => {
    const out = await graph.invoke({ items: [...items] }, { recursionLimit: 100 });
    const ordered = new Array<number>(items.length);
    for (const [i, v] of out.results) ordered[i] = v;
    return ordered;
  };
}
