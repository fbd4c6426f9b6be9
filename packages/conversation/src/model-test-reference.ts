import type { LLMMessage, MessageContent, Role, ToolSpec } from '@skein/spec';
import { defaultFormatToolDescription, isToolDescription } from './tool-description.js';

// The model-based test's deliberately naive reference: storage as a plain array, each batch a
// list of storage positions.

export interface ModelBatch {
  live: number[];
  withTools: boolean;
  /** The initial tools read when this batch's view was last built (for the invariant). */
  describedWith: ToolSpec[];
}

export interface Model {
  storage: LLMMessage[];
  batches: ModelBatch[];
  usage: number;
  tools: ToolSpec[];
  lastDesc: { position: number; content: MessageContent } | undefined;
  callCounter: number;
}

export const top = (m: Model) => m.batches[m.batches.length - 1]!;
export const isDesc = (msg: LLMMessage) => isToolDescription(msg);

export function store(model: Model, message: LLMMessage): number {
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
export function setView(model: Model, live: number[]) {
  const batch = top(model);
  batch.live = batch.withTools ? described(model, live) : live;
  if (batch.withTools) batch.describedWith = model.tools;
}

export function startBatch(model: Model, carried: number[], withTools: boolean) {
  model.batches.push({
    live: withTools ? described(model, carried) : carried,
    withTools,
    describedWith: model.tools,
  });
}

export function refreshTop(model: Model) {
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

export function truncateModel(
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

export function filterModel(model: Model, live: number[], roles: Role[], mode: 'keep' | 'remove') {
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

/** The same handler, on the model. */
export function originalClearModel(model: Model, keep: boolean) {
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

/**
 * SUMMARIZE on the model: the system messages but earlier summaries, the summary stored, then the
 * messages from the `keepTurns`-th last user message on that are not system messages.
 */
export function summarizeModel(
  model: Model,
  keepTurns: number,
  role: 'user' | 'system',
  text: string,
) {
  const live = top(model).live;
  const at = (p: number) => model.storage[p]!;
  const isSummary = (p: number) => at(p).metadata?.kind === 'summary';
  const system = live.filter((p) => at(p).role === 'system' && !isDesc(at(p)) && !isSummary(p));
  const users = live.filter((p) => at(p).role === 'user' && !isSummary(p));
  // Fewer turns than asked: all of them, from the first user message.
  const from = users.length >= keepTurns ? users.at(-keepTurns) : users[0];
  const kept =
    keepTurns === 0 || from === undefined
      ? []
      : live.filter((p, i) => i >= live.indexOf(from) && at(p).role !== 'system' && !isDesc(at(p)));
  const summarized = live.filter((p) => !system.includes(p) && !kept.includes(p) && !isDesc(at(p)));
  const summary = store(model, {
    role,
    content: text,
    metadata: { kind: 'summary', summarized: summarized.length },
  });
  startBatch(model, [...system, summary, ...kept], true);
}
