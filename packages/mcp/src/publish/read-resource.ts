import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Published } from './check-publications.js';
import { resourceNotFound } from './publication-errors.js';
import { resourceContents } from './resource-contents.js';

/** Whether `uri` names a published resource, or one of a published template. */
export function isPublished(published: Published, uri: string): boolean {
  return published.resources.has(uri) || published.templates.some((t) => t.parsed.match(uri));
}

// A template variable matched by an explode or a list comes back as several values: joined as the
// URI had them.
function flat(variables: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
  );
}

/** `resources/read`: a fixed resource by its URI first, else the first template that matches. */
export async function readResource(published: Published, uri: string): Promise<ReadResourceResult> {
  const resource = published.resources.get(uri);
  if (resource !== undefined)
    return { contents: resourceContents(uri, resource.mimeType, await resource.read()) };
  for (const { template, parsed } of published.templates) {
    const variables = parsed.match(uri);
    if (variables === null) continue;
    return {
      contents: resourceContents(uri, template.mimeType, await template.read(flat(variables), uri)),
    };
  }
  throw resourceNotFound(uri);
}
