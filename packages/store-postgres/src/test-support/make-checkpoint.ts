// The hand-made checkpoints of core's testing entry, for this package's store tests.
export { makeCheckpoint } from '@skein/core/testing';
