import type { RateLimiterStats } from '../limits/rate-limiter.js';
import type { ItemResult, ItemStatus } from '../output/item-result.js';
import { DurationSketch } from './duration-sketch.js';
import type { ModelPrice, RunSummary, TopError } from './run-summary.js';

/** Distinct error kinds kept; past this, new kinds are counted under the ones already seen. */
const MAX_ERROR_KINDS = 1_000;

/** Adds results up as they come (earlier processes' results first) into a `RunSummary`. */
export class SummaryBuilder {
  readonly #counts: Record<ItemStatus, number> = { COMPLETED: 0, FAILED: 0, PAUSED: 0, INVALID: 0 };
  #prompt = 0;
  #completion = 0;
  #total = 0;
  readonly #durations = new DurationSketch();
  readonly #errors = new Map<
    string,
    { code: string; message: string; count: number; itemId: string }
  >();
  #resumed = 0;

  add(result: ItemResult, fromEarlierProcess = false): void {
    if (fromEarlierProcess) this.#resumed++;
    this.#counts[result.status] = (this.#counts[result.status] ?? 0) + 1;
    this.#prompt += result.usage?.promptTokens ?? 0;
    this.#completion += result.usage?.completionTokens ?? 0;
    this.#total += result.usage?.totalTokens ?? 0;
    if (result.status !== 'INVALID') this.#durations.add(result.durationMs);
    if (result.error) this.#addError(result);
  }

  get tokens(): number {
    return this.#total;
  }

  build(fields: {
    runId: string;
    workflowId: string;
    finished: boolean;
    elapsedMs: number;
    model?: string | undefined;
    prices?: Readonly<Record<string, ModelPrice>> | undefined;
    rateLimits?: RateLimiterStats | undefined;
    scores?: RunSummary['scores'];
  }): RunSummary {
    const topErrors: TopError[] = [...this.#errors.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, 5);
    const total = Object.values(this.#counts).reduce((sum, n) => sum + n, 0);
    const cost = this.#cost(fields.model, fields.prices);
    return {
      runId: fields.runId,
      workflowId: fields.workflowId,
      items: { total, ...this.#counts },
      resumed: this.#resumed,
      finished: fields.finished,
      tokens: {
        promptTokens: this.#prompt,
        completionTokens: this.#completion,
        totalTokens: this.#total,
      },
      ...(cost ? { cost } : {}),
      durationMs: {
        p50: this.#durations.percentile(50),
        p95: this.#durations.percentile(95),
        max: this.#durations.max,
      },
      elapsedMs: fields.elapsedMs,
      topErrors,
      ...(fields.rateLimits ? { rateLimits: fields.rateLimits } : {}),
      ...(fields.scores ? { scores: fields.scores } : {}),
    };
  }

  #cost(
    model: string | undefined,
    prices: Readonly<Record<string, ModelPrice>> | undefined,
  ): RunSummary['cost'] {
    if (!prices) return undefined;
    const names = Object.keys(prices);
    const name = model ?? (names.length === 1 ? names[0] : undefined);
    const price = name === undefined ? undefined : prices[name];
    if (name === undefined || !price) return undefined;
    const amount =
      (this.#prompt * price.inputPerMillion + this.#completion * price.outputPerMillion) / 1e6;
    return { model: name, amount };
  }

  #addError(result: ItemResult): void {
    const { code, message } = result.error!;
    // Messages often name the item; the first line up to a colon groups them well enough.
    const key = `${code}\u0000${message.slice(0, 120)}`;
    const known = this.#errors.get(key);
    if (known) known.count++;
    else if (this.#errors.size < MAX_ERROR_KINDS)
      this.#errors.set(key, { code, message, count: 1, itemId: result.itemId });
  }
}
