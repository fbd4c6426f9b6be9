import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  GetPromptResultSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { conformancePublications } from '../conformance/fixture-publications.js';
import { PIXEL_PNG } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';
import type { McpPublications } from './publications.js';

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connect(publish: McpPublications | undefined): Promise<Client> {
  server = createMcpServer(new SkeinEngine({}), {
    name: 'test',
    version: '1.0.0',
    ...(publish === undefined ? {} : { publish }),
  });
  return connectInMemory(server);
}

describe('resources an app publishes', () => {
  it('are listed, read as text or blob, and read through a template with its variables', async () => {
    const client = await connect(conformancePublications());
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]);
    expect((await client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: PIXEL_PNG },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    const read = await client.readResource({ uri: 'test://template/42/data' });
    expect(read.contents).toEqual([
      {
        uri: 'test://template/42/data',
        mimeType: 'application/json',
        text: '{"id":"42","templateTest":true,"data":"Data for ID: 42"}',
      },
    ]);
  });

  it('tell a subscribed client of each change, until it unsubscribes', async () => {
    const publish = conformancePublications();
    const client = await connect(publish);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: 'test://watched-resource' });
    // Twice is one subscription: one notice per change.
    await client.subscribeResource({ uri: 'test://watched-resource' });
    publish.changeWatched('second');
    await expect.poll(() => updated).toEqual(['test://watched-resource']);
    expect(
      (await client.readResource({ uri: 'test://watched-resource' })).contents[0],
    ).toMatchObject({ text: 'second' });
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
    publish.changeWatched('third');
    // A ping after the change: had a notice been sent, it would have come first.
    await client.ping();
    expect(updated).toEqual(['test://watched-resource']);
    // Unsubscribing again, or from what was never subscribed to, is no error.
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  it('refuse an unknown URI with -32002, for reading and for subscribing', async () => {
    const client = await connect(conformancePublications());
    for (const uri of ['test://nope', 'test://template/1/other', 'skein://threads/x', ''])
      await expect(client.readResource({ uri })).rejects.toThrow(/-32002.*Resource not found/);
    await expect(client.subscribeResource({ uri: 'test://nope' })).rejects.toThrow(/-32002/);
    expect((await client.listResources()).resources).toHaveLength(3);
  });

  it('that read as something that is not content fail the read, naming the part', async () => {
    const client = await connect({
      resources: [
        {
          uri: 'app://bad',
          name: 'bad',
          read: () => ({ type: 'image', mediaType: 'image/png', data: 'not base64!' }) as never,
        },
        {
          uri: 'app://link',
          name: 'link',
          read: () => ({ type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' }),
        },
      ],
    });
    await expect(client.readResource({ uri: 'app://bad' })).rejects.toThrow(/resource app:\/\/bad/);
    await expect(client.readResource({ uri: 'app://link' })).rejects.toThrow(/not a link/);
  });
});

describe('prompts an app publishes', () => {
  it('render with their arguments: text, an image, and a file as an embedded resource', async () => {
    const client = await connect(conformancePublications());
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'test_prompt_with_arguments')).toEqual({
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    });
    const withArgs = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(withArgs.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" },
      },
    ]);
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages[0]!.content).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PIXEL_PNG,
    });
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded.messages[0]!.content).toEqual({
      type: 'resource',
      resource: {
        uri: 'test://example-resource',
        mimeType: 'text/plain',
        text: 'Embedded resource content for testing.',
      },
    });
  });

  it('refuse an unknown prompt, an unknown or missing argument, or one that is not a string', async () => {
    let rendered = 0;
    const publish = conformancePublications();
    const counted = {
      ...publish,
      prompts: publish.prompts!.map((p) => ({
        ...p,
        get: (args: Readonly<Record<string, string>>) => {
          rendered += 1;
          return p.get(args);
        },
      })),
    };
    server = createMcpServer(new SkeinEngine({}), { name: 't', version: '1', publish: counted });
    const client = await connectInMemory(server);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(
      /-32602.*No prompt named "nope"/,
    );
    await expect(
      client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } }),
    ).rejects.toThrow(/-32602.*needs argument "arg2"/);
    await expect(
      client.getPrompt({
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'a', arg2: 'b', arg3: 'c' },
      }),
    ).rejects.toThrow(/-32602.*takes no argument "arg3"/);
    await expect(
      client.request(
        {
          method: 'prompts/get',
          params: { name: 'test_prompt_with_arguments', arguments: { arg1: 1, arg2: 'b' } },
        },
        GetPromptResultSchema,
      ),
      // The MCP SDK checks a request's shape before any handler runs, and answers -32603.
    ).rejects.toThrow(/-32603[\s\S]*arguments[\s\S]*expected string/);
    expect(rendered).toBe(0);
  });
});

describe('completions', () => {
  it('complete a prompt argument and a template variable from the app, and refuse unknown ones', async () => {
    const client = await connect(conformancePublications());
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(prompt.completion).toEqual({
      values: ['paris', 'park', 'party'],
      total: 3,
      hasMore: false,
    });
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '4' },
    });
    expect(template.completion.values).toEqual(['456']);
    // An argument with no completer has no values.
    const none = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: 'x' },
    });
    expect(none.completion.values).toEqual([]);
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'a', value: '' },
      }),
    ).rejects.toThrow(/-32602/);
    await expect(
      client.complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'other', value: '' },
      }),
    ).rejects.toThrow(/-32602.*no variable "other"/);
  });
});

const read = (): string => 'x';

describe('publications are checked when the server is made', () => {
  it.each<[unknown, string]>([
    [{ resources: [{ uri: 'no scheme', name: 'x', read }] }, 'publish.resources[0].uri'],
    [{ resources: [{ uri: 'a:1', name: '', read }] }, 'publish.resources[0].name'],
    [{ resources: [{ uri: 'a:1', name: 'x' }] }, 'publish.resources[0].read'],
    [
      {
        resources: [
          { uri: 'a:1', name: 'x', read },
          { uri: 'a:1', name: 'y', read },
        ],
      },
      'publish.resources[1].uri',
    ],
    [
      { resourceTemplates: [{ uriTemplate: 'a://fixed', name: 'x', read }] },
      'publish.resourceTemplates[0].uriTemplate',
    ],
    [
      {
        resourceTemplates: [
          { uriTemplate: 'a://{id}', name: 'x', read, complete: { other: () => [] } },
        ],
      },
      'publish.resourceTemplates[0].complete.other',
    ],
    [
      { prompts: [{ name: 'p', get: () => [], arguments: [{ name: 'a' }, { name: 'a' }] }] },
      'publish.prompts[0].arguments[1].name',
    ],
    [{ prompts: [{ name: 'p', get: 'nope' }] }, 'publish.prompts[0].get'],
    [{ prompts: 'nope' }, 'publish.prompts'],
  ])('%j is refused at %s', (publish, argument) => {
    let thrown: unknown;
    try {
      createMcpServer(new SkeinEngine({}), { name: 't', version: '1', publish: publish as never });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidArgumentError).argument).toBe(argument);
  });

  it('a server with nothing published offers no resources, prompts or completions', async () => {
    const client = await connect(undefined);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toBeUndefined();
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.completions).toBeUndefined();
    await expect(client.listResources()).rejects.toThrow(/-32601/);
  });
});
