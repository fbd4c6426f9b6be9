import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Recorded provider streams kept in the package (sources and licences in their README). */
const FIXTURE_DIR = new URL('../__fixtures__/', import.meta.url);

interface ExpectedToolCall {
  readonly id: string;
  readonly type: string;
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface StreamFixture {
  readonly file: string;
  readonly path: string;
  readonly expected: {
    readonly tool_calls: readonly ExpectedToolCall[];
    readonly finish_reason: string;
    readonly usage_present: boolean;
  };
  readonly chunks: readonly unknown[];
}

export function loadStreamFixtures(): StreamFixture[] {
  const dir = fileURLToPath(FIXTURE_DIR);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const path = `${dir}${file}`;
      const [header, ...chunks] = JSON.parse(readFileSync(path, 'utf8')) as [
        { expected_result: StreamFixture['expected'] },
        ...unknown[],
      ];
      return { file, path, expected: header.expected_result, chunks };
    });
}

/** The chunks as an SSE body, the way a server sends them. */
export function toSseText(chunks: readonly unknown[], eol = '\n'): string {
  let text = '';
  for (const chunk of chunks) text += `data: ${JSON.stringify(chunk)}${eol}${eol}`;
  return `${text}data: [DONE]${eol}${eol}`;
}
