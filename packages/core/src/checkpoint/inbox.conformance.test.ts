import { runInboxConformance } from '../conformance/inbox-conformance.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

runInboxConformance('InMemoryCheckpointStore', async () => ({
  store: new InMemoryCheckpointStore(),
}));
