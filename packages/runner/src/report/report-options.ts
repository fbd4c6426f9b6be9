import { InvalidArgumentError } from '@skein/spec';
import type { BootstrapOptions } from '../score/bootstrap.js';
import { inspectorUrlProblem } from './inspector-link.js';

/** Options of `writeRunReport` and `writeComparisonReport`. */
export interface ReportOptions extends BootstrapOptions {
  /**
   * The inspector's address, e.g. `http://127.0.0.1:4319/`: threads then link to
   * `<address>#/thread/<thread id>`. Without it the page shows thread ids.
   */
  readonly inspectorUrl?: string;
}

/** Throws `InvalidArgumentError` (`inspectorUrl`) for an address that is not an http(s) URL. */
export function checkReportOptions(options: ReportOptions): void {
  if (options.inspectorUrl === undefined) return;
  const problem = inspectorUrlProblem(options.inspectorUrl);
  if (problem !== undefined)
    throw new InvalidArgumentError('inspectorUrl', `Report option inspectorUrl: ${problem}`, {
      problem,
    });
}
