// `@skein/core/store-kit`: what every durable CheckpointStore shares, whatever its database. The
// checkpoint codec (a checkpoint checked and turned into exact JSON column values; stored rows
// back into a thread), the continuity rule a save applies, the argument checks, and the
// `StoreError`s of the codes every store has. A store package keeps its SQL, its driver and the
// errors of its own database.
//
// It is a part of core rather than of @skein/spec because the codec reads the engine's
// checkpoint: core's `ThreadState` and @skein/conversation's snapshot version, which the
// contract package sits below and must not import (spec has no runtime dependencies).

export type { LeaseRequest } from '@skein/spec';
export type {
  AttachmentUse,
  ExtractedAttachments,
  StoredAttachment,
} from '../checkpoint/attachments.js';
export { attachmentDigest, extractAttachments } from '../checkpoint/attachments.js';
// The types a store's methods take and return, with the engine's state (`CheckpointStore` is in
// the main entry too: an app passes one to the engine).
export type {
  Checkpoint,
  CheckpointInfo,
  CheckpointStore,
  StoredState,
  StoredThread,
  StoredWake,
  ThreadInfo,
} from '../checkpoint/checkpoint-store.js';
export type { InboxRow } from '../checkpoint/inbox.js';
export { checkInboxPost, checkInboxTaken, inboxJson, postedFromRow } from '../checkpoint/inbox.js';
export type { NumberRange } from '../util/check-number.js';
export { checkNumber } from '../util/check-number.js';
export { checkKeepLast, checkString, describeValue } from './argument-checks.js';
export type { EncodedCheckpoint, EncodeOptions } from './checkpoint-codec.js';
export { encodeCheckpoint } from './checkpoint-codec.js';
export type { ForkBaseRow, ThreadHeadRow } from './continuity.js';
export { checkContinues, checkForkContinues } from './continuity.js';
export type { MigrationResult } from './migrations.js';
export { checkMigrationOrder } from './migrations.js';
export type { StoreIdentity, StoreKitErrorCode } from './store-errors.js';
export { storeClosed, storeCorrupt, storeTooNew, storeUnserializable } from './store-errors.js';
export type { CheckpointRow, StoredCheckpointRow, ThreadListRow } from './stored-rows.js';
export {
  checkpointInfo,
  decodeStoredState,
  decodeStoredThread,
  threadInfo,
} from './stored-rows.js';
