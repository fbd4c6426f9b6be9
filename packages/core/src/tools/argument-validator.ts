import type { ToolSpec } from '@skein/spec';
import type { ValidateFunction } from 'ajv';
import { JsonSchemaCompiler } from './json-schema-compiler.js';

export type ArgumentCheck =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; problems: string };

/**
 * Validates tool arguments with ajv, in the JSON Schema dialect each schema declares (`$schema`:
 * draft-07, 2019-09 or 2020-12; draft-07 without one). Schemas are compiled on first use and
 * cached per tool object, so registering ten thousand tools costs nothing until one is called, and
 * each tool's schema is compiled on its own, so two tools may share an `$id`.
 */
export class ArgumentValidator {
  readonly #compiler = new JsonSchemaCompiler();
  readonly #cache = new WeakMap<ToolSpec, ValidateFunction | Error>();

  #compile(tool: ToolSpec): ValidateFunction | Error {
    let compiled = this.#cache.get(tool);
    if (!compiled) {
      try {
        compiled = this.#compiler.compile(tool.parameters as object);
      } catch (error) {
        compiled = error instanceof Error ? error : new Error(String(error));
      }
      this.#cache.set(tool, compiled);
    }
    return compiled;
  }

  /** Parses the JSON argument string into an object, without a schema check. */
  parse(argumentsJson: string): ArgumentCheck {
    let args: unknown;
    try {
      args = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
    } catch (error) {
      return { ok: false, problems: `not valid JSON (${(error as Error).message})` };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { ok: false, problems: 'arguments must be a JSON object' };
    return { ok: true, args: args as Record<string, unknown> };
  }

  /** Parses the JSON argument string and checks it against the tool's schema. */
  check(tool: ToolSpec, argumentsJson: string): ArgumentCheck {
    const parsed = this.parse(argumentsJson);
    return parsed.ok ? this.checkValue(tool, parsed.args) : parsed;
  }

  checkValue(tool: ToolSpec, args: Record<string, unknown>): ArgumentCheck {
    const validate = this.#compile(tool);
    if (validate instanceof Error)
      return { ok: false, problems: `the tool's schema does not compile: ${validate.message}` };
    if (validate(args)) return { ok: true, args };
    const problems = (validate.errors ?? [])
      .map(
        (e) =>
          `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      )
      .join('; ');
    return { ok: false, problems };
  }
}
