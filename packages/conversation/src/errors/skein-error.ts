// The base class is the contract every package's errors share: it lives in @skein/spec.
export type { SkeinErrorOptions } from '@skein/spec';
export { SkeinError } from '@skein/spec';
