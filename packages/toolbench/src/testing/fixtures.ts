// Test-only access to the ToolBench fixtures copied into this package (src/__fixtures__, see its
// README for sources and licence): tests never read outside the repository.
import { readFileSync } from 'node:fs';
import type { LLMMessage } from '@skein/spec';

const FIXTURE_ROOT = new URL('../__fixtures__/', import.meta.url);

export const FIXTURES = {
  queries: 'StableToolBench/solvable_queries_example/test_instruction/G1_instruction.json',
  cot1073: 'StableToolBench/data_example/answer/virtual_chatgpt_cot/G1_instruction/1073_CoT@1.json',
  dfs1073:
    'StableToolBench/data_example/answer/virtual_chatgpt_dfs/G1_instruction/1073_DFS_woFilter_w2.json',
  tb10: 'ToolBench/data_example/answer/G1_answer/10_ChatGPT_DFS_woFilter_w2.json',
  converted:
    'StableToolBench/data_example/model_predictions_converted/virtual_chatgpt_cot/G1_instruction.json',
  passRate:
    'StableToolBench/data_example/pass_rate_results/virtual_chatgpt_cot/G1_instruction_virtual_chatgpt_cot.json',
  tbQueries: 'ToolBench/data_example/instruction/G1_query.json',
  demoQuery: 'ToolBench/data_example/instruction/inference_query_demo.json',
} as const;

export const ANSWER_FILES = [FIXTURES.cot1073, FIXTURES.dfs1073, FIXTURES.tb10] as const;

export function readFixture<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(new URL(path, FIXTURE_ROOT), 'utf8')) as T;
}

export interface RawMessage {
  readonly role: string;
  readonly content?: string | null;
  readonly name?: string;
  readonly function_call?: { readonly name: string; readonly arguments: string };
}

interface TreeNode {
  readonly node_type: string;
  readonly description: string;
  readonly observation?: string;
  readonly children: readonly TreeNode[];
}

export interface AnswerFile {
  readonly trys?: readonly { readonly chain: readonly TreeNode[] }[];
  readonly tree?: { readonly tree: TreeNode };
  readonly answer_generation: {
    readonly final_answer: string;
    readonly function: readonly {
      readonly name: string;
      readonly description: string;
      readonly parameters: Record<string, unknown>;
    }[];
    readonly train_messages: readonly (readonly RawMessage[])[];
    readonly query: string;
  };
}

/** One recorded Thought / Action / Action Input step. */
export interface RecordedStep {
  readonly source: string;
  readonly thought: string;
  readonly action: string;
  readonly actionInput: string;
}

function fromChain(source: string, chain: readonly TreeNode[], out: RecordedStep[]): void {
  chain.forEach((node, i) => {
    const input = chain[i + 1];
    if (node.node_type !== 'Action' || input?.node_type !== 'Action Input') return;
    const before = chain[i - 1];
    const thought = before?.node_type === 'Thought' ? before.description : '';
    out.push({ source, thought, action: node.description, actionInput: input.description });
  });
}

function fromTree(source: string, node: TreeNode, path: TreeNode[], out: RecordedStep[]): void {
  const here = [...path, node];
  if (node.node_type === 'Action Input' && path.at(-1)?.node_type === 'Action')
    fromChain(source, here.slice(-3), out);
  for (const child of node.children) fromTree(source, child, here, out);
}

/** Every recorded step of every trajectory in the fixtures (chains, trees, train messages, converted answers). */
export function recordedSteps(): RecordedStep[] {
  const out: RecordedStep[] = [];
  for (const file of ANSWER_FILES) {
    const data = readFixture<AnswerFile>(file);
    for (const attempt of data.trys ?? []) fromChain(`${file}#trys`, attempt.chain, out);
    if (data.tree) fromTree(`${file}#tree`, data.tree.tree, [], out);
    for (const [k, messages] of data.answer_generation.train_messages.entries()) {
      let thought = '';
      for (const message of messages) {
        if (message.role !== 'assistant') continue;
        if (message.function_call === undefined) {
          thought = message.content ?? '';
          continue;
        }
        out.push({
          source: `${file}#train_messages[${k}]`,
          thought: message.content ?? thought,
          action: message.function_call.name,
          actionInput: message.function_call.arguments,
        });
        thought = '';
      }
    }
  }
  const converted = readFixture<Record<string, ConvertedEntry>>(FIXTURES.converted);
  for (const [qid, entry] of Object.entries(converted)) {
    let node = entry.answer.answer_details[0];
    while (node !== undefined) {
      if (node.role === 'tool' && typeof node.message === 'object')
        out.push({
          source: `${FIXTURES.converted}#${qid}`,
          thought: '',
          action: node.message.name,
          actionInput: node.message.arguments,
        });
      node = node.next[0];
    }
  }
  return out;
}

interface ConvertedNode {
  readonly role: string;
  readonly message:
    | string
    | { readonly name: string; readonly arguments: string; readonly response: string };
  readonly next: readonly ConvertedNode[];
}

export interface ConvertedEntry {
  readonly query: string;
  readonly available_tools: readonly unknown[];
  readonly answer: {
    readonly method: string;
    readonly total_steps: number;
    readonly final_answer: string;
    readonly answer_details: readonly ConvertedNode[];
  };
}

/** A step as ToolLLaMA writes it at inference (after `Assistant:\n`). */
export function inferenceText(step: RecordedStep): string {
  return `Thought: ${step.thought}\nAction: ${step.action}\nAction Input: ${step.actionInput}`;
}

/** A step as the training data writes it (preprocess_toolllama_data.py L64-69). */
export function trainingText(step: RecordedStep): string {
  return `\nThought: ${step.thought}\nAction: ${step.action}\nAction Input: ${step.actionInput}`;
}

/**
 * A fixture's last `train_messages` list as the engine would store it: ids given to calls, a
 * `function` reply as a `tool` message answering the call before it.
 */
export function engineMessages(
  messages: readonly RawMessage[],
  finishAs: 'call' | 'metadata',
): LLMMessage[] {
  const out: LLMMessage[] = [];
  let lastCallId = '';
  messages.forEach((message, i) => {
    if (message.role === 'system' || message.role === 'user') {
      out.push({ role: message.role, content: message.content ?? '' });
    } else if (message.role === 'function' || message.role === 'tool') {
      out.push({
        role: 'tool',
        content: message.content ?? '',
        toolCallId: lastCallId,
        name: message.name ?? '',
      });
    } else if (message.function_call === undefined) {
      out.push({ role: 'assistant', content: message.content ?? '' });
    } else if (message.function_call.name === 'Finish' && finishAs === 'metadata') {
      const args = JSON.parse(message.function_call.arguments) as {
        return_type: string;
        final_answer?: string;
      };
      out.push({
        role: 'assistant',
        content: args.final_answer ?? '',
        metadata: {
          toolbench: {
            raw: `Thought: \nAction: Finish\nAction Input: ${message.function_call.arguments}`,
            mode: 'tolerant',
            thought: '',
            action: 'Finish',
            actionInput: message.function_call.arguments,
            finish: { returnType: args.return_type, arguments: message.function_call.arguments },
          },
        },
      });
    } else {
      lastCallId = `call_${i}`;
      out.push({
        role: 'assistant',
        content: message.content ?? '',
        toolCalls: [
          {
            id: lastCallId,
            name: message.function_call.name,
            arguments: message.function_call.arguments,
          },
        ],
      });
    }
  });
  return out;
}
