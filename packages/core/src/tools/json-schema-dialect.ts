/** The JSON Schema dialects tool and variable schemas may declare with `$schema`. */
export type JsonSchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** The `$schema` URI ajv knows each dialect by (its meta-schema id). */
export const DIALECT_URIS: Readonly<Record<JsonSchemaDialect, string>> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

// Keyed without scheme and trailing `#`: schemas in the wild write the same dialect both ways.
const BY_URI = new Map<string, JsonSchemaDialect>([
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
]);

type DialectLookup =
  | { readonly ok: true; readonly dialect: JsonSchemaDialect; readonly declared: boolean }
  | { readonly ok: false; readonly problem: string };

/**
 * Which dialect a schema is written in, from its `$schema`. A schema without `$schema` is read as
 * draft-07, ajv's default and what Skein always did.
 */
export function schemaDialect(schema: unknown): DialectLookup {
  const declared =
    typeof schema === 'object' && schema !== null && Object.hasOwn(schema, '$schema')
      ? (schema as { $schema: unknown }).$schema
      : undefined;
  if (declared === undefined) return { ok: true, dialect: 'draft-07', declared: false };
  const supported = Object.values(DIALECT_URIS).join(', ');
  if (typeof declared !== 'string')
    return { ok: false, problem: `$schema must be a URI string (supported: ${supported})` };
  const key = declared.replace(/^https?:\/\//, '').replace(/#$/, '');
  const dialect = BY_URI.get(key);
  if (dialect === undefined)
    return {
      ok: false,
      problem: `$schema "${declared}" is not a JSON Schema dialect Skein validates (supported: ${supported}; without $schema a schema is read as draft-07)`,
    };
  return { ok: true, dialect, declared: true };
}
