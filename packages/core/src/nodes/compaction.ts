import type { ConversationManager } from '@skein/conversation';
import type { CompactOptions, LLMNode } from '../workflow/types.js';
import { reportOperation } from './context-processor-node.js';
import type { NodeRunContext } from './node-handler.js';
import { summarizeConversation } from './summarize.js';

const DEFAULT_FRACTION = 0.8;
const DEFAULT_KEEP_TURNS = 2;

/** The tokens past which `compact` summarises first. */
function compactionBudget(compact: CompactOptions): number {
  if (compact.threshold !== undefined) return compact.threshold;
  return Math.floor(compact.contextWindow * (compact.fraction ?? DEFAULT_FRACTION));
}

/**
 * Before an LLM node's model call: when the visible conversation has more tokens than the node's
 * `compact` budget (by the engine's token counter), the summary runs first. It keeps up to
 * `keepTurns` turns (default 2), fewer when those alone would fill more than half the budget, so
 * the summary and the answer still fit, but never fewer than the turn being answered (unless
 * `keepTurns` is 0); a turn is never split.
 */
export async function compactIfNeeded(
  ctx: NodeRunContext<LLMNode>,
  compact: CompactOptions,
  round: number,
): Promise<void> {
  const { conversation } = ctx.thread;
  const budget = compactionBudget(compact);
  const visible = conversation.countVisibleTokens();
  if (visible <= budget) return;
  const keepTurns = turnsToKeep(
    conversation,
    visible,
    budget,
    compact.keepTurns ?? DEFAULT_KEEP_TURNS,
  );
  if (keepTurns === undefined) {
    ctx.services.emitter.emit('warning', {
      threadId: ctx.thread.threadId,
      nodeId: ctx.node.id,
      code: 'CONTEXT_OVER_BUDGET',
      message: `LLM node "${ctx.node.id}": the conversation has ${visible} tokens, over compact's ${budget}, and nothing left to summarise`,
      details: { tokens: visible, budget },
    });
    return;
  }
  const result = await summarizeConversation(ctx, { ...compact, keepTurns }, round);
  if (result) reportOperation(ctx, result);
}

/**
 * The most turns (up to `wanted`) whose keeping leaves at most half the budget, or the fewest
 * allowed; undefined when keeping those leaves nothing to summarise.
 */
function turnsToKeep(
  conversation: ConversationManager,
  visible: number,
  budget: number,
  wanted: number,
): number | undefined {
  // The turn being answered is kept unless the app asks for none: a summary of the question
  // instead of the question would change what the model answers.
  const fewest = Math.min(1, wanted);
  for (let turns = wanted; turns >= fewest; turns--) {
    const source = conversation.getMessagesToSummarize(turns);
    if (source.length === 0) continue;
    const kept = visible - source.reduce((sum, m) => sum + conversation.countTokens(m), 0);
    if (kept <= budget / 2 || turns === fewest) return turns;
  }
  return undefined;
}
