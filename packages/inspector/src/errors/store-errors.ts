import { NotFoundError, StoreError } from '@skein/spec';

/**
 * Why `openStore` (and `--db`) could not open a store; the classes are `@skein/spec`'s, the facts
 * fields of the error and in `details`:
 *
 * - `STORE_MISSING` (`NotFoundError`): a file that does not exist: the inspector reads stores, it
 *   never creates one (`location`).
 * - `NOT_A_STORE` (`StoreError`): a file that exists but is not a Skein store (an empty file
 *   included). Opening it as a store would turn it into one, so the inspector leaves it as it is
 *   (`location`, `reason`: what the file is instead).
 * - `UNSUPPORTED_STORE` (`StoreError`): something no store opener recognises (`location`,
 *   `supported`: what the inspector can open).
 * - `STORE_PACKAGE_MISSING` (`StoreError`): a location whose store package is not installed: it
 *   is an optional peer, so an app on SQLite does not pull PostgreSQL's client (`location`,
 *   `packageName`: what to install).
 */
export type OpenStoreError =
  | (NotFoundError<'STORE_MISSING'> & { readonly location: string })
  | (StoreError<'NOT_A_STORE'> & { readonly location: string; readonly reason: string })
  | (StoreError<'UNSUPPORTED_STORE'> & {
      readonly location: string;
      readonly supported: readonly string[];
    })
  | (StoreError<'STORE_PACKAGE_MISSING'> & {
      readonly location: string;
      readonly packageName: string;
    });

/** The codes of an `OpenStoreError`. */
export type OpenStoreErrorCode = OpenStoreError['code'];

type Of<C extends OpenStoreErrorCode> = Extract<OpenStoreError, { readonly code: C }>;

export function storeMissing(location: string): Of<'STORE_MISSING'> {
  return new NotFoundError('STORE_MISSING', `No store at ${location}: the file does not exist`, {
    facts: { location },
  }) as Of<'STORE_MISSING'>;
}

export function notAStore(location: string, reason: string): Of<'NOT_A_STORE'> {
  return new StoreError(
    'NOT_A_STORE',
    `${location} is not a Skein store (${reason}); the inspector opens only stores written by @skein/store-sqlite and never changes another file`,
    { facts: { location, reason } },
  ) as Of<'NOT_A_STORE'>;
}

export function unsupportedStore(
  location: string,
  supported: readonly string[],
): Of<'UNSUPPORTED_STORE'> {
  return new StoreError(
    'UNSUPPORTED_STORE',
    `Cannot open a store at ${location}: supported are ${supported.join(', ')}`,
    { facts: { location, supported } },
  ) as Of<'UNSUPPORTED_STORE'>;
}

export function storePackageMissing(
  location: string,
  packageName: string,
  cause: unknown,
): Of<'STORE_PACKAGE_MISSING'> {
  return new StoreError(
    'STORE_PACKAGE_MISSING',
    `Cannot open ${location}: it needs ${packageName}, an optional peer of @skein/inspector; install it beside the inspector`,
    { facts: { location, packageName }, cause },
  ) as Of<'STORE_PACKAGE_MISSING'>;
}
