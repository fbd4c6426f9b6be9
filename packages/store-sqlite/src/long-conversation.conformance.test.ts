import { runLongConversationConformance } from '@skein/core/conformance';
import { DRIVER } from './test-support/driver.js';
import { fileSubject } from './test-support/file-subject.js';

// Issue 45's 1,000 turns through summaries, on a file read back by a second connection.
runLongConversationConformance(`SqliteCheckpointStore on ${DRIVER}`, async () =>
  fileSubject('skein-sqlite-long-'),
);
