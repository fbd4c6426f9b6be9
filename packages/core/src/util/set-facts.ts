/**
 * Sets each fact of `facts` that is not undefined as a field of `error`. A class with several
 * codes declares the facts of all of them; an instance carries only those of its own code.
 */
export function setFacts(error: object, facts: object): void {
  for (const [name, value] of Object.entries(facts))
    if (value !== undefined) (error as Record<string, unknown>)[name] = value;
}
