import type { ScriptedTurn } from './types.js';

/** A scripted turn with its arguments as the JSON text to send. */
export interface NormalizedTurn {
  readonly content?: string;
  readonly reasoning?: string;
  readonly toolCalls: readonly {
    readonly id?: string | null;
    readonly name: string;
    readonly arguments: string;
  }[];
  readonly usage?: ScriptedTurn['usage'];
  readonly finishReason?: string;
}

export function normalizeTurn(turn: ScriptedTurn): NormalizedTurn {
  const { content } = turn;
  return {
    ...(content === undefined ? {} : { content }),
    ...(turn.reasoning === undefined ? {} : { reasoning: turn.reasoning }),
    toolCalls: (turn.toolCalls ?? []).map((call) => ({
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name,
      // Same rule as ScriptedLLMClient: an object goes as its JSON, a string as is.
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
    ...(turn.usage === undefined ? {} : { usage: turn.usage }),
    ...(turn.finishReason === undefined ? {} : { finishReason: turn.finishReason }),
  };
}
