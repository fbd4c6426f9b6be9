import type { ConversationManager } from './conversation-manager.js';

// Issue 10 §2: the original design's clear handler, ported to TypeScript types only, for the tests
// that check it means on Skein's API what it meant on the original's. Its body is verbatim.

// biome-ignore format: kept exactly as the original design wrote it
export function handleClearOperation(
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
