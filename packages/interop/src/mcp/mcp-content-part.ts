import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { type ContentPart, contentProblem, MAX_FILENAME_LENGTH } from '@skein/spec';

const OCTET_STREAM = 'application/octet-stream';
// What checkContent refuses in a file name; such a name is left out rather than the file.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The last path segment of a resource URI (`file:///tmp/q3.pdf` → `q3.pdf`), when it is one. */
function uriFilename(uri: string): string | undefined {
  const path = uri.split(/[?#]/)[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: the segment as written is still a better name than none.
  }
  if (name === '' || name.length > MAX_FILENAME_LENGTH || CONTROL.test(name)) return undefined;
  // `urn:isbn:123` has no path: a name with the scheme's colon in it is no file name.
  return /^[a-z][a-z0-9+.-]*:/i.test(name) ? undefined : name;
}

/** How a block the model cannot be given as a part is named in text. */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}]`;
    case 'resource':
      return `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${block.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

// A media part the engine would refuse (bytes that are not the declared type, bad base64)
// would fail the whole tool call there; here it becomes a note, and the rest of the result
// still reaches the model.
function checked(part: ContentPart, block: ContentBlock): ContentPart {
  const problem = contentProblem([part], 'result', {
    maxAttachmentBytes: Number.POSITIVE_INFINITY,
  });
  return problem === undefined
    ? part
    : { type: 'text', text: `${describeBlock(block)} (not kept: ${problem.problem})` };
}

/**
 * One MCP content block as a Skein content part: text as text; image and audio as image and
 * audio parts (`mimeType` read as `mediaType`, base64 `data` as is); an embedded resource's
 * `blob` as a file part named after the URI's last path segment, its `text` as a text part
 * headed `[resource <uri>]` so the model knows where it came from; a resource link as a text
 * part `[resource link <uri>]` (Skein never fetches it).
 */
export function mcpContentPart(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return checked({ type: block.type, mediaType: block.mimeType, data: block.data }, block);
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string')
        return { type: 'text', text: `[resource ${resource.uri}]\n${resource.text}` };
      const filename = uriFilename(resource.uri);
      const blob = (resource as { blob: string }).blob;
      return checked(
        {
          type: 'file',
          mediaType: resource.mimeType ?? OCTET_STREAM,
          ...(filename === undefined ? {} : { filename }),
          data: blob,
        },
        block,
      );
    }
    case 'resource_link':
      return { type: 'text', text: `[resource link ${block.uri}]` };
    default:
      return { type: 'text', text: describeBlock(block) };
  }
}
