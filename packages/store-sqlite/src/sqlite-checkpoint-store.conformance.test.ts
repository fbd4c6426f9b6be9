import { runCheckpointStoreConformance } from '@skein/core/conformance';
import { DRIVER, openStore } from './test-support/driver.js';
import { fileSubject } from './test-support/file-subject.js';

runCheckpointStoreConformance(`SqliteCheckpointStore on ${DRIVER} (file, reopened)`, async () =>
  fileSubject('skein-sqlite-conformance-'),
);

runCheckpointStoreConformance(`SqliteCheckpointStore on ${DRIVER} (:memory:)`, async () => ({
  store: openStore({ filename: ':memory:' }),
}));
