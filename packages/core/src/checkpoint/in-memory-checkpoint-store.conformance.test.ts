import { runCheckpointStoreConformance } from '../conformance/checkpoint-store-conformance.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

runCheckpointStoreConformance('InMemoryCheckpointStore', async () => ({
  store: new InMemoryCheckpointStore(),
}));
