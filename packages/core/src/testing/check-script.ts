import { ScriptError } from './errors/script-error.js';

type Check = (value: unknown, path: string) => void;

const FINISH_REASONS = ['stop', 'tool_calls', 'length', 'content_filter', 'error', 'other'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const is =
  (type: 'string' | 'number' | 'boolean'): Check =>
  (value, path) => {
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value)))
      throw ScriptError.invalid(path, `must be a ${type}, got ${JSON.stringify(value)}`);
  };

const either =
  (test: (value: unknown) => boolean, expected: string): Check =>
  (value, path) => {
    if (!test(value)) throw ScriptError.invalid(path, `must be ${expected}`);
  };

function object(fields: Readonly<Record<string, Check>>, required: readonly string[] = []): Check {
  const accepted = Object.keys(fields);
  return (value, path) => {
    if (!isRecord(value)) throw ScriptError.invalid(path, 'must be an object', accepted);
    for (const [key, field] of Object.entries(value)) {
      const check = fields[key];
      if (check === undefined)
        throw ScriptError.invalid(`${path}.${key}`, 'is not a known field', accepted);
      if (field !== undefined) check(field, `${path}.${key}`);
    }
    for (const key of required)
      if (value[key] === undefined) throw ScriptError.invalid(`${path}.${key}`, 'is required');
  };
}

const call = object(
  {
    id: is('string'),
    name: is('string'),
    arguments: either((v) => typeof v === 'string' || isRecord(v), 'a string or an object'),
    error: is('string'),
  },
  ['name'],
);

/** The fields of a ScriptedResponse; the first four mean the same as in testkit's server. */
export const checkResponse: Check = object({
  content: is('string'),
  toolCalls: (value, path) => {
    if (!Array.isArray(value)) throw ScriptError.invalid(path, 'must be an array');
    value.forEach((item, i) => {
      call(item, `${path}[${i}]`);
    });
  },
  usage: object(
    { promptTokens: is('number'), completionTokens: is('number'), totalTokens: is('number') },
    ['promptTokens', 'completionTokens'],
  ),
  finishReason: either(
    (v) => typeof v === 'string' && FINISH_REASONS.includes(v),
    `one of ${FINISH_REASONS.join(', ')}`,
  ),
  fail: either((v) => typeof v === 'string' || v instanceof Error, 'a string or an Error'),
  delayMs: is('number'),
  tokenDelayMs: is('number'),
  hang: is('boolean'),
  metadata: either(isRecord, 'an object'),
});

/** Refuses a listed step that is neither a function nor a valid response. */
export function checkScript(steps: readonly unknown[]): void {
  steps.forEach((step, i) => {
    if (typeof step !== 'function') checkResponse(step, `script[${i}]`);
  });
}
