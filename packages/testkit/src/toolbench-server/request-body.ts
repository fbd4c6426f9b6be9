import type { ToolBenchServerRequestBody } from './types.js';

const FIELDS = [
  'category',
  'tool_name',
  'api_name',
  'tool_input',
  'strip',
  'toolbench_key',
] as const;

/** One FastAPI-style validation problem (`{"loc", "msg", "type"}`). */
interface ValidationProblem {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly type: string;
}

export type BodyCheck =
  | { readonly ok: true; readonly body: ToolBenchServerRequestBody }
  | { readonly ok: false; readonly problems: readonly ValidationProblem[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks a raw body against the server's `Info` model; reports every problem at once. */
export function checkRequestBody(raw: string): BodyCheck {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const msg = error instanceof Error ? error.message : 'invalid JSON';
    return { ok: false, problems: [{ loc: ['body'], msg, type: 'value_error.jsondecode' }] };
  }
  if (!isRecord(value))
    return {
      ok: false,
      problems: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }],
    };
  const problems: ValidationProblem[] = [];
  for (const field of FIELDS) {
    const item = value[field];
    if (item === undefined) {
      problems.push({ loc: ['body', field], msg: 'field required', type: 'value_error.missing' });
    } else if (
      field === 'tool_input'
        ? typeof item !== 'string' && !isRecord(item)
        : typeof item !== 'string'
    ) {
      problems.push({
        loc: ['body', field],
        msg: field === 'tool_input' ? 'value is not a valid string or dict' : 'str type expected',
        type: 'type_error',
      });
    }
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, body: value as unknown as ToolBenchServerRequestBody };
}

export type ToolInputRead = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** `tool_input` as server/main.py L91-104 reads it: JSON text parsed, `""` as `{}`, objects kept. */
export function readToolInput(toolInput: ToolBenchServerRequestBody['tool_input']): ToolInputRead {
  if (typeof toolInput !== 'string') return { ok: true, value: toolInput };
  if (toolInput === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(toolInput) };
  } catch {
    return { ok: false };
  }
}
