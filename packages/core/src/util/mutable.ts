/** `T` with its fields writable: for per-call objects built field by field (no spreads). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
