import { SkeinError } from '@skein/spec';

/**
 * A browser test cannot start Chromium here, for a reason no retry fixes: the binary is missing,
 * or the run asked for the browser tests to be skipped and a suite launched Chromium anyway. The
 * message says what to do; `fix` holds that part alone.
 */
export class BrowserTestSetupError extends SkeinError<'BROWSER_TEST_SETUP'> {
  static override readonly errorName = 'BrowserTestSetupError';
  /** What to do about it, e.g. `apt-get install -y chromium`. */
  readonly fix: string;

  constructor(problem: string, fix: string) {
    super('BROWSER_TEST_SETUP', `${problem}. ${fix}`, { details: { fix } });
    this.fix = fix;
  }
}
