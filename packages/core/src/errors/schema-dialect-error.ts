import { SkeinError } from '@skein/spec';

/** A JSON Schema whose `$schema` names a dialect Skein cannot validate (draft-04, a custom URI…). */
export class SchemaDialectError extends SkeinError<'SCHEMA_DIALECT_UNSUPPORTED'> {
  static override readonly errorName = 'SchemaDialectError';
  readonly declared: unknown;

  constructor(declared: unknown, problem: string) {
    super('SCHEMA_DIALECT_UNSUPPORTED', problem, { details: { declared } });
    this.declared = declared;
  }
}
