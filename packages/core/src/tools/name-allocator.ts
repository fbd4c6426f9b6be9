/**
 * Hands out names that are free both in a registry and among names already handed out. Each base
 * keeps its own counter, so a run of clashes on one base costs amortised O(1) per name.
 */
export class NameAllocator {
  readonly #taken: (name: string) => boolean;
  readonly #reserved = new Set<string>();
  readonly #next = new Map<string, number>();

  constructor(taken: (name: string) => boolean) {
    this.#taken = taken;
  }

  isFree(name: string): boolean {
    return !this.#reserved.has(name) && !this.#taken(name);
  }

  reserve(name: string): void {
    this.#reserved.add(name);
  }

  /** `base` if free, else `base_2`, `base_3`, … (first free one); the result is reserved. */
  allocate(base: string): string {
    let name = base;
    let counter = this.#next.get(base) ?? 2;
    while (!this.isFree(name)) {
      name = `${base}_${counter}`;
      counter += 1;
    }
    this.#next.set(base, counter);
    this.reserve(name);
    return name;
  }
}
