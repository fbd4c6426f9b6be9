/**
 * Whether `error` is better-sqlite3 failing to load its compiled addon rather than SQLite failing.
 * The addon is loaded by the first `new Database()`, so this shows up when a store opens.
 */
export function isNativeBindingError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Thrown by the `bindings` package when no build of the addon exists.
  if (error.message.includes('Could not locate the bindings file')) return true;
  const code = (error as NodeJS.ErrnoException).code;
  // A build for another Node version, platform or architecture.
  if (code === 'ERR_DLOPEN_FAILED') return true;
  // An explicit path to the addon (better-sqlite3's `nativeBinding`) that does not exist.
  return code === 'MODULE_NOT_FOUND' && /\.node\b/.test(error.message);
}
