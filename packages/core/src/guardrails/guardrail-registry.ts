import { GUARDRAIL_STAGES, type Guardrail, type GuardrailStage } from './guardrail.js';
import { GuardrailError } from './guardrail-error.js';

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function checkGuardrail(name: string, guardrail: Guardrail): void {
  if (typeof name !== 'string' || name.length === 0)
    throw GuardrailError.invalid(String(name), 'its name must be a non-empty string');
  if (typeof guardrail !== 'object' || guardrail === null)
    throw GuardrailError.invalid(name, 'it must be an object with `stages` and `check`');
  if (typeof guardrail.check !== 'function')
    throw GuardrailError.invalid(name, '`check` must be a function');
  const { stages } = guardrail;
  if (!Array.isArray(stages) || stages.length === 0)
    throw GuardrailError.invalid(name, '`stages` must list at least one stage');
  for (const stage of stages)
    if (!GUARDRAIL_STAGES.includes(stage))
      throw GuardrailError.invalid(
        name,
        `unknown stage ${JSON.stringify(stage)} (stages: ${GUARDRAIL_STAGES.join(', ')})`,
      );
  const { timeoutMs } = guardrail;
  if (
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)
  )
    throw GuardrailError.invalid(
      name,
      `timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}, got ${String(timeoutMs)}`,
    );
  if (guardrail.beside !== undefined && typeof guardrail.beside !== 'boolean')
    throw GuardrailError.invalid(name, '`beside` must be a boolean');
  if (guardrail.beside && !stages.includes('input'))
    throw GuardrailError.invalid(name, '`beside` applies to input guardrails only');
}

/**
 * The engine's guardrails by name. Workflows name them (definitions are JSON), and registering a
 * workflow checks each name is here and can check the stage it is named for.
 */
export class GuardrailRegistry {
  readonly #byName = new Map<string, Guardrail>();

  constructor(guardrails: Readonly<Record<string, Guardrail>> = {}) {
    for (const [name, guardrail] of Object.entries(guardrails)) this.register(name, guardrail);
  }

  /** Adds a guardrail; a name registered already is refused unless `replace` is set. */
  register(name: string, guardrail: Guardrail, options: { replace?: boolean } = {}): this {
    checkGuardrail(name, guardrail);
    if (this.#byName.has(name) && !options.replace)
      throw GuardrailError.invalid(
        name,
        'a guardrail of that name is registered; pass { replace: true }',
      );
    this.#byName.set(
      name,
      Object.freeze({ ...guardrail, stages: Object.freeze([...guardrail.stages]) }),
    );
    return this;
  }

  get(name: string): Guardrail | undefined {
    return this.#byName.get(name);
  }

  /** The stages a registered guardrail checks (undefined when none has the name). */
  stagesOf(name: string): readonly GuardrailStage[] | undefined {
    return this.#byName.get(name)?.stages;
  }

  get size(): number {
    return this.#byName.size;
  }
}
