// What `api-reports.mjs` commits of an API Extractor report.

/**
 * A report as committed: the notes on types an entry uses but does not export name the built
 * file they were found in, and that name carries the bundler's content hash and a line number,
 * which move with any change to the package; kept, every build would rewrite every report.
 */
export function normalizeReport(text) {
  return text.replace(
    /^(\/\/ dist\/(?:[\w.-]+\/)*[\w.-]+?)(?:-[A-Za-z0-9_]{8})?(\.d\.c?ts):\d+:\d+ - /gm,
    '$1$2 - ',
  );
}
