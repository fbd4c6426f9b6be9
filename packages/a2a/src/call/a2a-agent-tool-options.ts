import type { AgentCard } from '@a2a-js/sdk';
import { InvalidArgumentError } from '@skein/spec';
import { TOOL_NAME } from './tool-name.js';

export interface A2AAgentToolOptions {
  /**
   * The agent's base URL. Its card is read from `.well-known/agent-card.json` resolved against
   * it (the SDK's `ClientFactory.createFromUrl`: give a trailing `/` when the agent lives under
   * a path). Give this or `card`.
   */
  readonly url?: string;
  /** The agent card itself, when the app already has it (no request is made for it). */
  readonly card?: AgentCard;
  /** The tool's name. Default: the card's name made safe (`Recipe Agent` → `recipe_agent`). */
  readonly name?: string;
  /** What the model reads. Default: the card's description and its skills. */
  readonly description?: string;
  /** Extra HTTP headers on every request, the card's included (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch every request goes through. Default: the global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * How long to wait before reading a task that is still running (ms, default 200); each next
   * wait doubles, up to `maxPollIntervalMs` (default 5,000).
   */
  readonly pollIntervalMs?: number;
  readonly maxPollIntervalMs?: number;
  /**
   * The tool's time limit per call (ms; default the engine's `toolTimeoutMs`, 60 s unless set).
   * An agent whose tasks run longer needs more: when the limit passes, the task is canceled.
   */
  readonly timeoutMs?: number;
  /**
   * What the agent's `input-required` becomes. `pause` (the default): the thread pauses for a
   * person's answer, durably, and the answer is sent to the same remote task. `ask-model`: the
   * tool's result is the question, and the model answers it by calling the tool again with the
   * `taskId` (the model may ask the user, or know the answer).
   */
  readonly inputRequired?: 'pause' | 'ask-model';
  /** Where the tool came from, for conflict reports. Default `a2a:<card name>`. */
  readonly source?: string;
}

/** Refuses options that cannot work, before any request is made. */
export function checkOptions(options: A2AAgentToolOptions): void {
  const fail = (argument: string, problem: string) => {
    throw new InvalidArgumentError(`options.${argument}`, `a2aAgentTool: ${problem}`);
  };
  if ((options.url === undefined) === (options.card === undefined))
    fail('url', 'give exactly one of `url` and `card`');
  if (options.url !== undefined && !URL.canParse(options.url))
    fail('url', `\`url\` is not a URL: ${JSON.stringify(options.url)}`);
  if (options.name !== undefined && !TOOL_NAME.test(options.name))
    fail('name', `\`name\` must match ${TOOL_NAME} (got ${JSON.stringify(options.name)})`);
  if (
    options.inputRequired !== undefined &&
    options.inputRequired !== 'pause' &&
    options.inputRequired !== 'ask-model'
  )
    fail(
      'inputRequired',
      `\`inputRequired\` must be "pause" or "ask-model" (got ${JSON.stringify(options.inputRequired)})`,
    );
  for (const key of ['pollIntervalMs', 'maxPollIntervalMs', 'timeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= 2 ** 31 - 1))
      fail(key, `\`${key}\` must be an integer from 1 to 2147483647 (got ${value})`);
  }
}
