// The Standard Schema (https://standardschema.dev) interfaces Skein reads, declared here rather
// than imported from @standard-schema/spec so core keeps no dependency for two interfaces. They
// match spec v1.1: zod 4, valibot and arktype schemas are assignable to them structurally.

/** One problem a Standard Schema found in a value. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** What `~standard.jsonSchema` (Standard JSON Schema, spec v1.1) offers; zod 4.2+ has it. */
interface StandardJsonSchemaConverter {
  readonly input: (options: {
    readonly target: 'draft-2020-12' | 'draft-07' | (string & {});
  }) => Record<string, unknown>;
}

/** A schema of any Standard Schema library (`StandardSchemaV1` in @standard-schema/spec). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: StandardJsonSchemaConverter;
  };
}

/** The type a Standard Schema produces once it has validated a value. */
export type InferStandardOutput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['output'];
