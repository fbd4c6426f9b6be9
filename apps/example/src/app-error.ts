/** A problem the app reports in one line (and an exit code), never as a stack trace. */
export class AppError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
