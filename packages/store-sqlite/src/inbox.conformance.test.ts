import { runInboxConformance } from '@skein/core/conformance';
import { DRIVER, openStore } from './test-support/driver.js';
import { fileSubject } from './test-support/file-subject.js';

runInboxConformance(`SqliteCheckpointStore on ${DRIVER} (file, reopened)`, async () =>
  fileSubject('skein-sqlite-inbox-'),
);

runInboxConformance(`SqliteCheckpointStore on ${DRIVER} (:memory:)`, async () => ({
  store: openStore({ filename: ':memory:' }),
}));
