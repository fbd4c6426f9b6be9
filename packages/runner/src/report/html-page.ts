import { escapeHtml } from './escape-html.js';

/**
 * The page's policy: nothing may load or run, styles only from the page itself, images only as
 * `data:` URLs. The page needs no script; markup that slipped past the escaping could run none.
 */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

// Only system fonts and inline SVG: the page opens from file:// with no network.
const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5f6b7a; --line: #d8dde5; --better: #1a7f37;
  --worse: #c62828; --noise: #7a8594; --bar: #3f6fb5; --soft: #f4f6f9; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 28px 64px; color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 36px 0 8px; padding-top: 12px; border-top: 1px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 6px; }
p.meta, .muted { color: var(--muted); }
table { border-collapse: collapse; margin: 8px 0 12px; }
th, td { text-align: left; vertical-align: top; padding: 4px 10px 4px 0;
  border-bottom: 1px solid var(--line); }
th { font-weight: 600; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.text { max-width: 420px; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  overflow-wrap: anywhere; }
.verdict.better { color: var(--better); font-weight: 600; }
.verdict.worse { color: var(--worse); font-weight: 600; }
.verdict.noise { color: var(--noise); }
.scroll { overflow-x: auto; max-width: 100%; }
svg.chart { display: block; max-width: none; font: 11px system-ui, sans-serif; }
svg .axis, svg .zero { stroke: var(--ink); stroke-width: 1; }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .tick, svg .count { fill: var(--muted); }
svg .label, svg .value { fill: var(--ink); }
svg .bar { fill: var(--bar); }
svg .bar.up { fill: var(--better); }
svg .bar.down { fill: var(--worse); }
svg .interval .ci, svg .interval .cap { stroke-width: 2.5; }
svg .interval.better .ci, svg .interval.better .cap { stroke: var(--better); }
svg .interval.better .mean { fill: var(--better); }
svg .interval.worse .ci, svg .interval.worse .cap { stroke: var(--worse); }
svg .interval.worse .mean { fill: var(--worse); }
svg .interval.noise .ci, svg .interval.noise .cap { stroke: var(--noise); }
svg .interval.noise .mean { fill: var(--noise); }
`;

/** A whole page: `title` is text, `body` HTML already escaped where it holds data. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="@skein/runner">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
