// Every store must refuse what JSON cannot carry, so the check lives in @skein/spec.
export type { NonJsonValue } from '@skein/spec';
export { findNonJsonValue, MAX_JSON_DEPTH } from '@skein/spec';
