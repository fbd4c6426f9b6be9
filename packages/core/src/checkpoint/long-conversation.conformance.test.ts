import { runLongConversationConformance } from '../conformance/long-conversation-conformance.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

runLongConversationConformance('InMemoryCheckpointStore', async () => ({
  store: new InMemoryCheckpointStore(),
}));
