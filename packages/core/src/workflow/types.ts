import type {
  BatchManagementOperation,
  ClearOperation,
  FilterOperation,
  InsertOperation,
  ReplaceOperation,
  TruncateByCountOperation,
  TruncateByTokensOperation,
} from '@skein/conversation';
import type { JsonSchema, Role, ToolChoice } from '@skein/spec';
import type { GuardrailNames } from '../guardrails/guardrail.js';

// A workflow is plain JSON-serialisable data: it can be stored, diffed, drawn and sent over the
// wire. Behaviour lives in the engine's node handlers, tools and the LLM client.

/** Every node type, in one list: `NodeType` and the validator's check both come from it. */
export const NODE_TYPES = [
  'START',
  'END',
  'LLM',
  'TOOL',
  'ROUTE',
  'CONTEXT_PROCESSOR',
  'VARIABLE',
  'USER_INTERACTION',
  'SLEEP',
  'WAIT_FOR_EVENT',
  'PARALLEL',
  'MAP',
  'JOIN',
  'SUBWORKFLOW',
] as const;

export type NodeType = (typeof NODE_TYPES)[number];

interface NodeBase {
  readonly id: string;
  readonly name?: string;
  readonly description?: string;
}

export interface StartNode extends NodeBase {
  readonly type: 'START';
}

export interface EndNode extends NodeBase {
  readonly type: 'END';
  readonly config?: {
    /** Expression for the thread's output (default: the last LLM or TOOL node output). */
    readonly output?: string;
  };
}

export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly maxAttempts?: number;
  /** Delay before the first retry; doubles each time (default 200 ms). */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
}

/**
 * How the engine writes a summary of the conversation (a SUMMARIZE operation, or an LLM node's
 * `compact`): the model call's model, instructions and retries, and what the summary keeps.
 */
export interface SummaryOptions {
  /** The last turns kept after the summary, whole (default 0; 2 for `compact`). */
  readonly keepTurns?: number;
  /** The summary message's role (default `user`). */
  readonly role?: 'user' | 'system';
  /** The model the summary call names (`LLMRequest.model`); default the client's own. */
  readonly model?: string;
  /** The summary call's system prompt (plain text), replacing the engine's default. */
  readonly prompt?: string;
  /** The summary call's `maxTokens`. */
  readonly maxTokens?: number;
  readonly retry?: RetryPolicy;
  /**
   * What the summary model sees of images, audio and files: `placeholder` (default) a line
   * naming each (kind, media type, size), `send` the parts themselves, for a model that takes them.
   */
  readonly attachments?: 'placeholder' | 'send';
}

/**
 * A SUMMARIZE as workflow data: the engine has the model write the summary of the visible
 * conversation (all but the last `keepTurns` turns) and starts a batch that shows it in their
 * place (see `SummarizeOperation` in `@skein/conversation`).
 */
export interface SummarizeContextOperation extends SummaryOptions {
  readonly type: 'SUMMARIZE';
}

/**
 * Summarise before a model call when the visible conversation would pass a budget: `threshold`
 * tokens, or `fraction` (default 0.8) of `contextWindow`, counted by the engine's token counter.
 */
export type CompactOptions = SummaryOptions &
  (
    | { readonly threshold: number; readonly contextWindow?: never; readonly fraction?: never }
    | { readonly contextWindow: number; readonly fraction?: number; readonly threshold?: never }
  );

export interface LLMNodeConfig {
  /** Added as a system message when the node starts (a template: `{{ vars.x }}`). */
  readonly systemPrompt?: string;
  /** Added as a user message when the node starts (a template). */
  readonly prompt?: string;
  /** Names of the tools offered; default all the thread's available tools (initial + dynamic). */
  readonly tools?: readonly string[];
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly toolChoice?: ToolChoice;
  /** Model calls that may request tools before the node stops (default 10). */
  readonly maxToolRounds?: number;
  /** Tool calls of one response run at most this many at a time (default 4). */
  readonly toolConcurrency?: number;
  readonly retry?: RetryPolicy;
  /** Variable that receives the final assistant text (the parsed JSON with `output`). */
  readonly outputVariable?: string;
  /** Asks for a final answer that is JSON matching a schema; see `LLMOutputConfig`. */
  readonly output?: LLMOutputConfig;
  /** Summarise the conversation first when a model call would pass this budget. */
  readonly compact?: CompactOptions;
  /** Guardrails (registered on the engine) for this node, beside the workflow's. */
  readonly guardrails?: GuardrailNames;
}

/**
 * Structured output of an LLM node: the model is asked for JSON matching `schema` (adapters pass
 * it on as their provider's response format), the final answer is validated with ajv, and the
 * parsed value becomes the node's output (and `outputVariable`). An answer that is not JSON or does
 * not match fails the call with `NodeError` `OUTPUT_INVALID` (retryable), so `retry` asks again.
 */
export interface LLMOutputConfig {
  /** A JSON Schema (draft-07 unless `$schema` names 2019-09 or 2020-12). */
  readonly schema: JsonSchema;
  /** A name for the schema where the provider wants one: `[a-zA-Z0-9_-]{1,64}` (default `output`). */
  readonly name?: string;
  /**
   * Ask the provider to enforce the schema strictly (OpenAI `strict: true`, which accepts only a
   * subset of JSON Schema). Default false: the schema guides the model and Skein validates.
   */
  readonly strict?: boolean;
}

export interface LLMNode extends NodeBase {
  readonly type: 'LLM';
  readonly config?: LLMNodeConfig;
}

export interface ToolNodeConfig {
  readonly tool: string;
  /** Arguments; string values are templates (`"{{ vars.city }}"`). */
  readonly args?: Readonly<Record<string, unknown>>;
  readonly outputVariable?: string;
}

export interface ToolNode extends NodeBase {
  readonly type: 'TOOL';
  readonly config: ToolNodeConfig;
}

export interface RouteNode extends NodeBase {
  readonly type: 'ROUTE';
}

/**
 * A context operation as workflow data: the conversation's own operations (`applyOperation`),
 * spelled the same, without what JSON cannot hold (FILTER's predicate, TRUNCATE's token counter).
 */
export type ContextProcessorOperation =
  | ClearOperation
  | TruncateByCountOperation
  | Omit<TruncateByTokensOperation, 'tokenCounter'>
  | InsertOperation
  | ReplaceOperation
  | Omit<FilterOperation, 'predicate'>
  | BatchManagementOperation
  | SummarizeContextOperation;

export interface ContextProcessorNode extends NodeBase {
  readonly type: 'CONTEXT_PROCESSOR';
  readonly config: { readonly operations: readonly ContextProcessorOperation[] };
}

export interface VariableNodeConfig {
  /** Variables set from expressions, in order (`{ count: 'vars.count + 1' }`). */
  readonly assign?: Readonly<Record<string, string>>;
  /** Variables set to literal values. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** A message appended to the conversation; `content` is a template. */
  readonly message?: { readonly role: Role; readonly content: string };
}

export interface VariableNode extends NodeBase {
  readonly type: 'VARIABLE';
  readonly config: VariableNodeConfig;
}

export interface UserInteractionNode extends NodeBase {
  readonly type: 'USER_INTERACTION';
  readonly config?: {
    /** Shown to whoever answers (a template). */
    readonly prompt?: string;
    /** Variable that receives the answer. */
    readonly variable?: string;
    /** Add the answer as a user message (default true). */
    readonly addMessage?: boolean;
    /**
     * The answer's JSON Schema (any dialect the engine reads tools' schemas in). Every way of
     * answering checks the answer against it before the pause is claimed: one that fails is
     * refused with `RESUME_INPUT_INVALID` and the thread still waits. It travels with the pause
     * (`pending.input`), so a client can build a form from it (MCP elicitation does).
     */
    readonly input?: JsonSchema;
  } & WaitTimeout;
}

/**
 * How long a wait may last, and what happens then. `timeout` is milliseconds: a number, or an
 * expression giving one (read when the node starts waiting). At the deadline the engine wakes the
 * thread: it goes to `onTimeout` when set, else the node fails with `NodeError` `WAIT_TIMED_OUT`.
 */
export interface WaitTimeout {
  readonly timeout?: number | string;
  /** The node the thread goes to when the wait times out (instead of the node's edges). */
  readonly onTimeout?: string;
}

/**
 * Waits, without holding a process or a timer, until a time: `duration` milliseconds from when
 * the node starts (a number or an expression), or `until` (an expression giving an ISO 8601
 * time). The thread is WAITING meanwhile; its output is the ISO time it was due.
 */
export interface SleepNode extends NodeBase {
  readonly type: 'SLEEP';
  readonly config: {
    readonly duration?: number | string;
    readonly until?: string;
  };
}

/**
 * Waits for an outside event: `engine.signal(event, payload)` or a call of the thread's webhook.
 * The payload is the node's output, and goes to `variable` and/or (`addMessage`) the
 * conversation as a user message.
 */
export interface WaitForEventNode extends NodeBase {
  readonly type: 'WAIT_FOR_EVENT';
  readonly config: {
    /** The event's name, as `signal` gives it. */
    readonly event: string;
    /**
     * Expression that must hold for the event to be taken: it reads the payload as `event` and
     * the thread's scope (`vars`, `input`, `nodes`…), e.g. `event.orderId == vars.orderId`.
     */
    readonly match?: string;
    /** Variable that receives the payload. */
    readonly variable?: string;
    /** Add the payload as a user message (default false). */
    readonly addMessage?: boolean;
  } & WaitTimeout;
}

/**
 * How a branch or child thread's conversation starts: `forked` sees what the parent saw (its
 * visible messages, with the branch's own tool description), `isolated` starts empty (the
 * workflow's initial tools described as usual).
 */
export type BranchConversation = 'forked' | 'isolated';

/** One named path of a PARALLEL node: the node it starts at (it runs until it reaches the JOIN). */
export interface BranchDefinition {
  readonly name: string;
  readonly start: string;
}

/** Starts its branches together; each runs as its own child thread until it reaches `join`. */
export interface ParallelNode extends NodeBase {
  readonly type: 'PARALLEL';
  readonly config: {
    readonly branches: readonly BranchDefinition[];
    /** The JOIN node where the branches end. */
    readonly join: string;
    /** At most this many branches run at once (default: all). */
    readonly maxConcurrency?: number;
    readonly conversation?: BranchConversation;
  };
}

/** One branch per item of a list: each runs the path from `start` to `join` with the item bound. */
export interface MapNode extends NodeBase {
  readonly type: 'MAP';
  readonly config: {
    /** An expression giving an array (e.g. `vars.cities`). */
    readonly items: string;
    /** The variable that holds the item in its branch (default `item`). */
    readonly itemVariable?: string;
    /** The variable that holds the item's index in its branch (default `index`). */
    readonly indexVariable?: string;
    readonly start: string;
    readonly join: string;
    /** At most this many branches run at once (default 10). */
    readonly maxConcurrency?: number;
    readonly conversation?: BranchConversation;
  };
}

/** What the parent's conversation receives at a JOIN, in branch order. */
export type MergePolicy =
  /** Nothing (the default). */
  | 'none'
  /** Each branch's last assistant message without tool calls. */
  | 'final-message'
  /** Everything each branch added, whole (a tool call always with its results). */
  | 'exchange'
  /** A merge function registered on the engine under this name (`SkeinEngineOptions.mergers`). */
  | { readonly function: string };

/** Waits for the branches of its PARALLEL or MAP node and gathers their outputs in branch order. */
export interface JoinNode extends NodeBase {
  readonly type: 'JOIN';
  readonly config?: {
    /** `all` (default), `any` (the first to complete), or the first `n` to complete. */
    readonly wait?: 'all' | 'any' | { readonly first: number };
    /** `fail-fast` (default): a failed branch cancels the others and fails the node; `collect`: per-branch `{ status, output | error }`. */
    readonly onError?: 'fail-fast' | 'collect';
    /** Where the array of outputs goes (default: the JOIN's output only, `nodes.<join id>`). */
    readonly outputVariable?: string;
    /** What a branch gives, an expression over the branch's own scope (default `output`: its last node's output). */
    readonly output?: string;
    readonly merge?: MergePolicy;
  };
}

/** Runs another registered workflow as a child thread and maps its input and output. */
export interface SubworkflowNode extends NodeBase {
  readonly type: 'SUBWORKFLOW';
  readonly config: {
    readonly workflow: string;
    readonly version?: string;
    /** The child's variables, each an expression over this thread's scope. */
    readonly input?: Readonly<Record<string, string>>;
    /** A template: when set, the child's first user message. */
    readonly message?: string;
    /** Variables of this thread set from the child, each an expression over the child's scope (`output` is its END output). */
    readonly output?: Readonly<Record<string, string>>;
    /** Where the child's END output goes, whole. */
    readonly outputVariable?: string;
    /** `isolated` (default) or `forked`. */
    readonly conversation?: BranchConversation;
    readonly merge?: MergePolicy;
  };
}

export type NodeDefinition =
  | StartNode
  | EndNode
  | LLMNode
  | ToolNode
  | RouteNode
  | ContextProcessorNode
  | VariableNode
  | UserInteractionNode
  | SleepNode
  | WaitForEventNode
  | ParallelNode
  | MapNode
  | JoinNode
  | SubworkflowNode;

export interface EdgeDefinition {
  readonly id?: string;
  readonly from: string;
  readonly to: string;
  /** Expression over `vars`, `input`, `nodes`, `output`; the edge is taken when it is truthy. */
  readonly condition?: string;
  /** Taken when no conditional edge of the node holds. An edge without condition is a default. */
  readonly default?: boolean;
  readonly label?: string;
}

/** What fires a trigger, checked between nodes. */
export type TriggerCondition =
  | { readonly type: 'visible-tokens-over'; readonly tokens: number }
  | { readonly type: 'visible-messages-over'; readonly count: number }
  | { readonly type: 'node-completed'; readonly nodeId: string }
  | { readonly type: 'tool-failed'; readonly times: number; readonly tool?: string }
  | { readonly type: 'expression'; readonly expression: string };

export type TriggerAction =
  | {
      readonly type: 'context';
      /** Any context operation but SUMMARIZE, whose model call has no place between nodes. */
      readonly operation: Exclude<ContextProcessorOperation, SummarizeContextOperation>;
    }
  | { readonly type: 'set-variable'; readonly variable: string; readonly expression: string }
  | { readonly type: 'goto'; readonly nodeId: string };

export interface TriggerDefinition {
  readonly id: string;
  readonly when: TriggerCondition;
  readonly action: TriggerAction;
  /** Fire at most once per thread (default false: every time the condition holds). */
  readonly once?: boolean;
}

export interface WorkflowDefinition {
  readonly id: string;
  readonly version: string;
  readonly name?: string;
  readonly description?: string;
  readonly nodes: readonly NodeDefinition[];
  readonly edges: readonly EdgeDefinition[];
  /** Names of registered tools every thread starts with; described by the guaranteed message. */
  readonly initialTools?: readonly string[];
  readonly variables?: {
    readonly schema?: JsonSchema;
    readonly defaults?: Readonly<Record<string, unknown>>;
  };
  readonly triggers?: readonly TriggerDefinition[];
  /** Guardrails (registered on the engine by name) for every LLM node of the workflow. */
  readonly guardrails?: GuardrailNames;
}
