/**
 * Text received in pieces, joined once at the end. Appending with `+=` builds a rope of one
 * small live object per piece, which every young-generation GC then has to copy; an array of
 * the pieces (which already exist) costs one pointer each.
 */
export class TextParts {
  readonly #parts: string[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(piece: string): void {
    this.#parts.push(piece);
    this.#length += piece.length;
  }

  join(): string {
    const parts = this.#parts;
    if (parts.length > 1) {
      const joined = parts.join('');
      parts.length = 1;
      parts[0] = joined;
    }
    return parts[0] ?? '';
  }
}
