/**
 * The TypeScript type a JSON Schema literal describes, for `defineTool` to type `execute`. The
 * schema must be a literal type: written inline in `defineTool`, or declared `as const`.
 *
 * Supported subset: `type` (`string`, `number`, `integer`, `boolean`, `null`, `object`, `array`,
 * or a list of them), `properties` + `required` (listed keys required, others optional),
 * `items`, `enum`, `const`, and OpenAPI's `nullable: true`. Anything else (`anyOf`, `$ref`,
 * `additionalProperties`, formats, bounds) is checked at run time by the argument validator but
 * not reflected in the type: such a schema gives `unknown` where it appears.
 */
export type FromSchema<S> = S extends { readonly nullable: true }
  ? FromNonNull<S> | null
  : FromNonNull<S>;

type FromNonNull<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? FromType<S, T>
      : unknown;

type FromType<S, T> = T extends readonly (infer U)[]
  ? U extends unknown
    ? FromType<S, U>
    : never
  : T extends 'string'
    ? string
    : T extends 'number' | 'integer'
      ? number
      : T extends 'boolean'
        ? boolean
        : T extends 'null'
          ? null
          : T extends 'array'
            ? FromArray<S>
            : T extends 'object'
              ? FromObject<S>
              : unknown;

type FromArray<S> = S extends { readonly items: infer I } ? FromSchema<I>[] : unknown[];

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Flatten<
      { [K in keyof P & RequiredKeys<S>]: FromSchema<P[K]> } & {
        [K in Exclude<keyof P, RequiredKeys<S>>]?: FromSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

// Shows `{ city: string; days?: number }` in editors instead of an intersection of mapped types.
type Flatten<T> = { [K in keyof T]: T[K] } & {};
