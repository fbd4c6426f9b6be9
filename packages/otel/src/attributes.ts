// Attribute names. The `gen_ai.*` ones follow the OpenTelemetry GenAI semantic conventions
// (development status); the `skein.*` ones carry what those conventions have no name for.

export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const GEN_AI_WORKFLOW_NAME = 'gen_ai.workflow.name';
export const GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ERROR_TYPE = 'error.type';

// Content: set only with `captureContent: true`.
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const GEN_AI_TOOL_DEFINITIONS = 'gen_ai.tool.definitions';
export const GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';

export const SKEIN_THREAD_ID = 'skein.thread.id';
export const SKEIN_THREAD_STATUS = 'skein.thread.status';
export const SKEIN_THREAD_STEPS = 'skein.thread.steps';
export const SKEIN_THREAD_PARENT_ID = 'skein.thread.parent_id';
export const SKEIN_THREAD_ROOT_ID = 'skein.thread.root_id';
export const SKEIN_THREAD_BRANCH_PATH = 'skein.thread.branch_path';
export const SKEIN_THREAD_RESUMED = 'skein.thread.resumed';
export const SKEIN_PAUSE_REASON = 'skein.pause.reason';
export const SKEIN_WORKFLOW_ID = 'skein.workflow.id';
export const SKEIN_WORKFLOW_VERSION = 'skein.workflow.version';
export const SKEIN_NODE_ID = 'skein.node.id';
export const SKEIN_NODE_TYPE = 'skein.node.type';
export const SKEIN_NODE_STEP = 'skein.node.step';
export const SKEIN_NODE_STATUS = 'skein.node.status';
export const SKEIN_NODE_NEXT = 'skein.node.next';
export const SKEIN_LLM_ROUND = 'skein.llm.round';
/** Why the engine made the call when it is not a turn: `summary`. */
export const SKEIN_LLM_PURPOSE = 'skein.llm.purpose';
// Also on model calls, when their messages hold media: `skein.llm.input.media.*` and
// `skein.llm.output.media.*` (count, types, mime_types, sizes, bytes, <type>.count), made by
// `mediaAttributes`.
export const SKEIN_TOOL_IS_ERROR = 'skein.tool.is_error';
// A guardrail's verdict other than pass: a `skein.guardrail` event on the node span. A trip also
// marks the thread run's span with the guardrail's name (`skein.guardrail.tripped`).
export const SKEIN_GUARDRAIL_NAME = 'skein.guardrail.name';
export const SKEIN_GUARDRAIL_STAGE = 'skein.guardrail.stage';
export const SKEIN_GUARDRAIL_ACTION = 'skein.guardrail.action';
export const SKEIN_GUARDRAIL_REASON = 'skein.guardrail.reason';
export const SKEIN_GUARDRAIL_TRIPPED = 'skein.guardrail.tripped';
export const SKEIN_LINK_KIND = 'skein.link.kind';
