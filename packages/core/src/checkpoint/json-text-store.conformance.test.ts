import { runCheckpointStoreConformance } from '../conformance/checkpoint-store-conformance.js';
import { JsonTextStore } from '../test-support/json-text-store.js';

runCheckpointStoreConformance('a store keeping JSON text', async () => ({
  store: new JsonTextStore(),
}));
