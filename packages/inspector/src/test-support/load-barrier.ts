/**
 * Wraps a store so that, once armed for n callers, the next n `load` calls wait for each other
 * before reading: n requests then read the same stored state, as they would if they had raced.
 */
export function withLoadBarrier<S extends object>(
  inner: S,
): { store: S; arm(count: number): void } {
  let waiting: (() => void)[] = [];
  let needed = 0;
  const load = async (...args: unknown[]) => {
    if (needed > 0) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === needed) {
          needed = 0;
          for (const release of waiting) release();
          waiting = [];
        }
      });
    }
    return (Reflect.get(inner, 'load') as (...a: unknown[]) => unknown).apply(inner, args);
  };
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'load') return load;
      const value: unknown = Reflect.get(target, key, target);
      // The store's own methods use private fields: they must run on the store itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    arm: (count) => {
      needed = count;
    },
  };
}
