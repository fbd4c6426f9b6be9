import { encodeBase64 } from '@skein/spec';

/**
 * An SDK image or file output as JSON, for `data.parts`: inline bytes (`image.data`,
 * `file.data`) as base64 text. The tool message's metadata is stored in checkpoints, which hold
 * JSON only, so bytes kept there as they were would fail the whole tool result.
 */
export function jsonSafeOutput<T extends { readonly type: string }>(output: T): T {
  const key = output.type === 'image' ? 'image' : output.type === 'file' ? 'file' : undefined;
  const inner = key === undefined ? undefined : (output as Record<string, unknown>)[key];
  if (typeof inner !== 'object' || inner === null) return output;
  const data = (inner as { data?: unknown }).data;
  if (!(data instanceof Uint8Array)) return output;
  return { ...output, [key!]: { ...inner, data: encodeBase64(data) } };
}
