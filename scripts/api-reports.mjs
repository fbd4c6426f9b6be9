#!/usr/bin/env node
// Records every package entry's public API with API Extractor, one report per entry in the
// package's `api/` folder (committed), so any change to an API shows in review. Run after the
// packages are built (it reads their `.d.ts`):
//   node scripts/api-reports.mjs            check: fails, naming the entries, if a report changed
//   node scripts/api-reports.mjs --update   write the reports anew (commit them with the change)
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { normalizeReport } from './api-report-text.mjs';

const root = new URL('..', import.meta.url).pathname;
const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));

/** Each public entry of each package: its built `.d.ts` and the report's name. */
function entries() {
  const found = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const folder = join(root, 'packages', dir);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private || (only.length && !only.includes(dir))) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = target?.import?.types ?? target?.types;
      if (subpath === './package.json' || typeof types !== 'string') continue;
      const name = subpath === '.' ? dir : `${dir}-${subpath.slice(2).replaceAll('/', '-')}`;
      found.push({ folder, types: join(folder, types), name });
    }
  }
  return found;
}

const temp = mkdtempSync(join(tmpdir(), 'skein-api-'));
const fresh = join(temp, 'reports');
mkdirSync(fresh);
const changed = [];
const failed = [];
try {
  for (const { folder, types, name } of entries()) {
    const reportFolder = join(folder, 'api');
    mkdirSync(reportFolder, { recursive: true });
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: folder,
        mainEntryPointFilePath: types,
        compiler: {
          // Its own compiler options: the DOM lib, to follow `AbortSignal` and `fetch` types.
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2022',
              module: 'ESNext',
              moduleResolution: 'Bundler',
              lib: ['ES2023', 'DOM'],
              types: ['node'],
              strict: true,
              skipLibCheck: true,
            },
            include: [types],
          },
        },
        apiReport: {
          enabled: true,
          // Written fresh and compared here, normalized (see `normalizeReport`).
          reportFolder: fresh,
          reportTempFolder: temp,
          reportFileName: name,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning' },
            // No release tags (@public, @beta): every exported name is public.
            'ae-missing-release-tag': { logLevel: 'none' },
            'ae-undocumented': { logLevel: 'none' },
            // `{@link}` in doc comments may name what an entry does not export.
            'ae-unresolved-link': { logLevel: 'none' },
            // A type an entry uses but does not export is noted in the report itself.
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
      configObjectFullPath: join(folder, 'api-extractor.json'),
      packageJsonFullPath: join(folder, 'package.json'),
    });
    const problems = [];
    const result = Extractor.invoke(config, {
      localBuild: true,
      messageCallback: (message) => {
        // `console-*` messages say what was written; the others are problems with the entry.
        if (
          (message.logLevel === 'warning' || message.logLevel === 'error') &&
          !message.messageId.startsWith('console-')
        )
          problems.push(`${message.messageId}: ${message.text}`);
        message.handled = true;
      },
    });
    if (problems.length > 0 || result.errorCount > 0) {
      failed.push({ name, problems });
      continue;
    }
    const file = `${name}.api.md`;
    const report = normalizeReport(readFileSync(join(fresh, file), 'utf8'));
    const committedPath = join(reportFolder, file);
    const differs = !existsSync(committedPath) || readFileSync(committedPath, 'utf8') !== report;
    if (differs && update) writeFileSync(committedPath, report);
    else if (differs) changed.push(name);
    console.log(`${differs ? (update ? '✎' : '✗') : '✓'} ${name}`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
for (const { name, problems } of failed)
  console.error(`✗ ${name}: API Extractor could not read it\n  ${problems.join('\n  ')}`);
if (changed.length > 0 && !update)
  console.error(
    `✗ the public API changed: ${changed.join(', ')}. Review the change, then record it with \`node scripts/api-reports.mjs --update\` and commit packages/*/api/.`,
  );
process.exit(failed.length > 0 || (changed.length > 0 && !update) ? 1 : 0);
