import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolError } from '../errors/tool-error.js';
import { DIALECT_URIS, type JsonSchemaDialect, schemaDialect } from './json-schema-dialect.js';

const AJV_CLASSES = { 'draft-07': Ajv, '2019-09': Ajv2019, '2020-12': Ajv2020 } as const;

/** True when the schema names an `$id` anywhere, which ajv would register instance-wide. */
function declaresId(schema: object): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '$id')) return true;
    for (const child of Object.values(value)) if (typeof child === 'object') stack.push(child);
  }
  return false;
}

/**
 * Compiles JSON Schemas with the ajv class of their dialect (`$schema`). Schemas are independent:
 * one that declares an `$id` gets an ajv instance of its own, so two schemas with the same `$id`
 * never clash; the rest share one instance per dialect and are dropped from its cache once
 * compiled, so replaced tools do not pile up. Throws a `ToolError` (`SCHEMA_DIALECT_UNSUPPORTED`)
 * for a dialect it cannot validate, and what ajv throws for a schema it refuses.
 */
export class JsonSchemaCompiler {
  readonly #options: Options;
  readonly #shared = new Map<JsonSchemaDialect, Ajv>();

  constructor(options: Options = {}) {
    this.#options = { allErrors: true, strict: false, addUsedSchema: false, ...options };
  }

  #ajv(dialect: JsonSchemaDialect, own: boolean): Ajv {
    if (own) return new AJV_CLASSES[dialect](this.#options);
    let ajv = this.#shared.get(dialect);
    if (!ajv) {
      ajv = new AJV_CLASSES[dialect](this.#options);
      this.#shared.set(dialect, ajv);
    }
    return ajv;
  }

  compile(schema: object | boolean): ValidateFunction {
    if (typeof schema === 'boolean') return this.#ajv('draft-07', false).compile(schema);
    const lookup = schemaDialect(schema);
    if (!lookup.ok)
      throw ToolError.schemaDialect((schema as { $schema?: unknown }).$schema, lookup.problem);
    // ajv finds the meta-schema by its exact id; `https://…draft-07/schema` must become its `http`.
    const source = lookup.declared ? { ...schema, $schema: DIALECT_URIS[lookup.dialect] } : schema;
    const own = declaresId(source);
    const ajv = this.#ajv(lookup.dialect, own);
    const validate = ajv.compile(source);
    if (!own) ajv.removeSchema(source);
    return validate;
  }

  /** ajv's one-line summary of validation errors. */
  errorsText(errors: readonly ErrorObject[] | null | undefined): string {
    return this.#ajv('draft-07', false).errorsText(errors as ErrorObject[] | null | undefined);
  }
}
