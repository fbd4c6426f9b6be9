import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@skein/spec';

/** The chunks of a fixture file: a JSON array whose element 0 is a header (`_fixture_header`). */
export async function loadFixtureChunks(path: string | URL): Promise<unknown[]> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (!Array.isArray(parsed)) {
    throw new InvalidArgumentError('fixture', `Fixture ${String(path)} is not a JSON array`);
  }
  const [first, ...rest] = parsed;
  const isHeader =
    typeof first === 'object' &&
    first !== null &&
    (first as Record<string, unknown>)._fixture_header === true;
  return isHeader ? rest : parsed;
}
