import { SkeinError } from '@skein/spec';

const FIX =
  'better-sqlite3 builds it in its install script, so allow that script (pnpm: list "better-sqlite3" ' +
  'in pnpm.onlyBuiltDependencies and run `pnpm rebuild better-sqlite3`; npm: do not install with ' +
  '--ignore-scripts, or run `npm rebuild better-sqlite3`). When no prebuilt binary can be ' +
  'downloaded for this platform and Node version the script compiles one, which needs python3, ' +
  'make and a C++ compiler (g++ or clang).';

/**
 * better-sqlite3's native addon could not be loaded: it was never built (installed with
 * `--ignore-scripts`, a failed compile) or was built for another Node version or platform.
 */
export class StoreNativeMissingError extends SkeinError<'STORE_NATIVE_MISSING'> {
  static override readonly errorName = 'StoreNativeMissingError';
  readonly filename: string;

  constructor(filename: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    super(
      'STORE_NATIVE_MISSING',
      `Cannot open checkpoint database ${filename}: better-sqlite3's native binding did not load (${reason}). ${FIX}`,
      { cause, details: { filename } },
    );
    this.filename = filename;
  }
}
