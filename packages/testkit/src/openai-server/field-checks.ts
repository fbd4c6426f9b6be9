import { InvalidArgumentError } from '@skein/spec';
import { invalidServerOption } from './errors/invalid-server-option.js';

/** Checks one value found at `path`; throws when it cannot work. */
export type FieldCheck = (value: unknown, path: string) => void;

function fail(path: string, problem: string, accepted?: readonly string[]): never {
  throw invalidServerOption(path, problem, accepted);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const typeCheck =
  (type: 'string' | 'boolean' | 'number'): FieldCheck =>
  (value, path) => {
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value)))
      fail(path, `must be a ${type}, got ${JSON.stringify(value) ?? typeof value}`);
  };

export const isString = typeCheck('string');
export const isBoolean = typeCheck('boolean');
export const isNumber = typeCheck('number');

export const isNonNegativeInteger: FieldCheck = (value, path) => {
  if (!Number.isInteger(value) || (value as number) < 0)
    fail(path, `must be a non-negative integer, got ${JSON.stringify(value)}`);
};

export const oneOf =
  (...checks: FieldCheck[]): FieldCheck =>
  (value, path) => {
    const problems: string[] = [];
    for (const check of checks) {
      try {
        check(value, path);
        return;
      } catch (error) {
        if (!InvalidArgumentError.isInstance(error)) throw error;
        problems.push(error.message);
      }
    }
    fail(path, `does not fit any accepted form (${problems.join('; ')})`);
  };

export const isArrayOf =
  (item: FieldCheck): FieldCheck =>
  (value, path) => {
    if (!Array.isArray(value)) fail(path, 'must be an array');
    for (const [i, element] of value.entries()) item(element, `${path}[${i}]`);
  };

export const isAnyObject: FieldCheck = (value, path) => {
  if (!isRecord(value)) fail(path, 'must be an object');
};

/**
 * An object whose fields are all known: `required` must be present, unknown ones are refused with
 * the accepted list.
 */
export function isObject(
  fields: Readonly<Record<string, FieldCheck>>,
  options: { required?: readonly string[] } = {},
): FieldCheck {
  const accepted = Object.keys(fields);
  return (value, path) => {
    if (!isRecord(value)) fail(path, 'must be an object', accepted);
    for (const [key, field] of Object.entries(value)) {
      const check = fields[key];
      const at = path === '' ? key : `${path}.${key}`;
      if (check === undefined) fail(at, 'is not a known field', accepted);
      if (field !== undefined) check(field, at);
    }
    for (const key of options.required ?? [])
      if (value[key] === undefined) fail(path === '' ? key : `${path}.${key}`, 'is required');
  };
}

/** A TCP port to listen on: 0 (any free one) to 65535. */
export const isPort: FieldCheck = (value, path) => {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 65_535)
    fail(path, `must be an integer port from 0 to 65535, got ${JSON.stringify(value)}`);
};
