import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { type ContentPart, checkContent, InvalidArgumentError } from '@skein/spec';
import { partBlock } from '../report/part-block.js';
import type { Published } from './check-publications.js';
import { invalidParams, known } from './publication-errors.js';

/**
 * `prompts/get`: the prompt's messages for `args`. An unknown prompt, an argument it does not
 * take, or a required one left out is the client's mistake (InvalidParams, nothing rendered); a
 * message the app's `get` made wrong is the app's (InvalidArgumentError naming it).
 */
export async function getPrompt(
  published: Published,
  name: string,
  args: Readonly<Record<string, string>> = {},
): Promise<GetPromptResult> {
  const prompt = published.prompts.get(name);
  if (prompt === undefined)
    throw invalidParams(
      `No prompt named ${JSON.stringify(name)} (${known(published.prompts.keys())})`,
      {
        name,
      },
    );
  const declared = prompt.arguments ?? [];
  for (const given of Object.keys(args))
    if (!declared.some((a) => a.name === given))
      throw invalidParams(
        `Prompt ${JSON.stringify(name)} takes no argument ${JSON.stringify(given)} (${declared.length === 0 ? 'it takes none' : `it takes ${declared.map((a) => JSON.stringify(a.name)).join(', ')}`})`,
        { name, argument: given },
      );
  const missing = declared.find((a) => a.required === true && args[a.name] === undefined);
  if (missing !== undefined)
    throw invalidParams(
      `Prompt ${JSON.stringify(name)} needs argument ${JSON.stringify(missing.name)}`,
      {
        name,
        argument: missing.name,
      },
    );
  const messages = await prompt.get(args);
  if (!Array.isArray(messages))
    throw new InvalidArgumentError(
      `prompts.${name}.get`,
      `Prompt ${JSON.stringify(name)}: get must return an array of messages`,
    );
  const home = `skein://prompts/${encodeURIComponent(name)}`;
  return {
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    messages: messages.map((message, m) => {
      const where = `prompt ${name}: messages[${m}]`;
      if (message?.role !== 'user' && message?.role !== 'assistant')
        throw new InvalidArgumentError(
          `${where}.role`,
          `${where}.role must be "user" or "assistant"`,
        );
      const [part] = checkContent([message.content], `${where}.content`) as readonly ContentPart[];
      return {
        role: message.role,
        content: partBlock(part!, `${home}/messages/${m}`, 0, `${where}.content`),
      };
    }),
  };
}
