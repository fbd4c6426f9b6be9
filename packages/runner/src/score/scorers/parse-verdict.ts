import type { JsonSchema } from '@skein/spec';

/** A field of a verdict: free text, one of a few words, or a whole number in a range. */
type VerdictField =
  | { readonly type: 'string' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'integer'; readonly min: number; readonly max: number };

/** The fields a verdict has: every one required, no other allowed. */
export type VerdictShape = Readonly<Record<string, VerdictField>>;

export type ParsedVerdict =
  | { readonly ok: true; readonly value: Readonly<Record<string, string | number>> }
  | { readonly ok: false; readonly problem: string };

// One fence around the whole answer, as models often add: ```json … ``` or ``` … ```.
const FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/;

function fieldProblem(name: string, field: VerdictField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : `"${name}" is not a string`;
    case 'enum':
      return typeof value === 'string' && field.values.includes(value)
        ? undefined
        : `"${name}" is ${JSON.stringify(value)}, not one of ${field.values.map((v) => `"${v}"`).join(', ')}`;
    case 'integer':
      return typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= field.min &&
        value <= field.max
        ? undefined
        : `"${name}" is ${JSON.stringify(value)}, not a whole number from ${field.min} to ${field.max}`;
  }
}

/**
 * A model's verdict, read strictly: the answer must be one JSON object (white space around it,
 * and one Markdown code fence around the whole, are allowed) with exactly the fields of `shape`,
 * each of its type. Anything else is refused with the first problem found: a verdict is never
 * guessed from prose, where "not solved" would read as solved.
 */
export function parseVerdict(text: string, shape: VerdictShape): ParsedVerdict {
  if (typeof text !== 'string') return { ok: false, problem: 'the answer is not text' };
  let body = text.trim();
  const fenced = FENCE.exec(body);
  if (fenced) body = fenced[1]!.trim();
  if (body === '') return { ok: false, problem: 'the answer is empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'the answer is not one JSON object' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'the answer is not one JSON object' };
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (!Object.hasOwn(shape, key))
      return { ok: false, problem: `"${key}" is not a field of the verdict` };
  for (const [name, field] of Object.entries(shape)) {
    if (!Object.hasOwn(fields, name)) return { ok: false, problem: `"${name}" is missing` };
    const problem = fieldProblem(name, field, fields[name]);
    if (problem !== undefined) return { ok: false, problem };
  }
  return { ok: true, value: fields as Record<string, string | number> };
}

/** The JSON Schema of a verdict, for providers that can hold a model to one (`responseFormat`). */
export function verdictSchema(shape: VerdictShape): JsonSchema {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape))
    properties[name] =
      field.type === 'string'
        ? { type: 'string' }
        : field.type === 'enum'
          ? { type: 'string', enum: [...field.values] }
          : { type: 'integer', minimum: field.min, maximum: field.max };
  return {
    type: 'object',
    properties,
    required: Object.keys(shape),
    additionalProperties: false,
  };
}
