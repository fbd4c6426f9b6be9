import type { UIChunk } from '../ui-chunk.js';

/** Every part of a stream, in order. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** The part types of a chunk list, for comparing the shape of a stream. */
export const typesOf = (chunks: readonly UIChunk[]) => chunks.map((c) => c.type);
