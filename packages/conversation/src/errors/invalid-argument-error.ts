// Shared by every package that checks arguments: it lives in @skein/spec.
export { InvalidArgumentError } from '@skein/spec';
