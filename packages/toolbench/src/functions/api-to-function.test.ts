import { describe, expect, it } from 'vitest';
import {
  type AnswerFile,
  type ConvertedEntry,
  FIXTURES,
  readFixture,
} from '../testing/fixtures.js';
import { toolBenchFunction, toolBenchFunctions } from './api-to-function.js';
import { FINISH_FUNCTION, TOOLBENCH_FINISH_FUNCTION } from './finish-function.js';
import type { ToolBenchQuery } from './types.js';

const queries = readFixture<ToolBenchQuery[]>(FIXTURES.queries);
const converted = readFixture<Record<string, ConvertedEntry>>(FIXTURES.converted);

function byId(id: number): ToolBenchQuery {
  const query = queries.find((q) => q.query_id === id);
  if (!query) throw new Error(`no query ${id}`);
  return query;
}

describe('toolBenchFunctions', () => {
  it.each([588, 608, 1073])(
    'reproduces the available_tools of query %i in the converted answers (key order included)',
    (id) => {
      const functions = [...toolBenchFunctions(byId(id)), FINISH_FUNCTION];
      expect(JSON.stringify(functions)).toBe(
        JSON.stringify(converted[String(id)]?.available_tools),
      );
    },
  );

  it('reproduces the function list recorded in the 1073 answer files', () => {
    for (const file of [FIXTURES.cot1073, FIXTURES.dfs1073]) {
      const recorded = readFixture<AnswerFile>(file).answer_generation.function;
      expect(JSON.stringify([...toolBenchFunctions(byId(1073)), FINISH_FUNCTION])).toBe(
        JSON.stringify(recorded),
      );
    }
  });

  it('uses the original ToolBench Finish text where the ToolBench answer file does', () => {
    const recorded = readFixture<AnswerFile>(FIXTURES.tb10).answer_generation.function.at(-1);
    expect(JSON.stringify(TOOLBENCH_FINISH_FUNCTION)).toBe(JSON.stringify(recorded));
  });

  it('offers an API with only optional parameters without them (the reference quirk)', () => {
    const links = toolBenchFunctions(byId(608)).find(
      (fn) => fn.name === 'get_channel_links_for_kick_com_api_kick_api',
    );
    expect(links?.parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      optional: [],
    });
  });

  it('names the ToolBench G1 queries, path-like API names included', () => {
    const tbQueries = readFixture<ToolBenchQuery[]>(FIXTURES.tbQueries);
    expect(
      toolBenchFunctions(tbQueries[4]!)
        .slice(0, 3)
        .map((fn) => fn.name),
    ).toEqual(
      [
        'tracking_correo_argentino_result_task_task_id_for_transportistas_de_argentina',
        'cities_states_stateisocode_for_transportistas_de_argentina',
        'cities_postcode_stateisocode_postcode_for_transportistas_de_argentina',
      ].map((name) => name.slice(-64)),
    );
  });

  it('reports a malformed query with the path of the bad field', () => {
    const bad = {
      query: 'q',
      api_list: [{ tool_name: 'T', api_name: '' }],
    } as unknown as ToolBenchQuery;
    expect(() => toolBenchFunctions(bad)).toThrowError(
      expect.objectContaining({
        code: 'TOOLBENCH_INVALID_QUERY',
        path: 'query.api_list[0].api_name',
      }),
    );
    const noList = { query: 'q' } as unknown as ToolBenchQuery;
    expect(() => toolBenchFunctions(noList)).toThrowError(/query\.api_list/);
  });

  it('refuses two APIs with one function name', () => {
    const query: ToolBenchQuery = {
      query: 'q',
      api_list: [
        { category_name: 'Data', tool_name: 'T', api_name: 'Get Data' },
        { category_name: 'Data', tool_name: 'T', api_name: 'get-data' },
      ],
    };
    expect(() => toolBenchFunctions(query)).toThrowError(
      expect.objectContaining({
        code: 'TOOLBENCH_DUPLICATE_FUNCTION',
        functionName: 'get_data_for_t',
      }),
    );
  });
});

describe('toolBenchFunction', () => {
  const api = {
    category_name: 'Data',
    tool_name: 'My Tool',
    api_name: 'Lookup',
    api_description: '  Lookup finds things.\n',
    required_parameters: [
      { name: 'id', type: 'NUMBER', description: 'x'.repeat(300), default: 5 },
      { name: 'Flag', type: 'BOOLEAN', description: '', default: '' },
    ],
    optional_parameters: [
      { name: 'from', type: 'ENUM', description: 'start', default: null },
      { name: 'when', type: 'DATE (YYYY-MM-DD)', description: 'day', default: false },
    ],
  };

  it('maps types, renames reserved parameter names, cuts descriptions and keeps examples that print non-empty', () => {
    const fn = toolBenchFunction(api);
    expect(fn.name).toBe('lookup_for_my_tool');
    expect(fn.description).toBe(
      'This is the subfunction for tool "my_tool", you can use this tool.The description of this function is: "lookup_for_my_tool finds things."',
    );
    expect(fn.parameters).toEqual({
      type: 'object',
      properties: {
        is_id: { type: 'integer', description: 'x'.repeat(256), example_value: 5 },
        flag: { type: 'boolean', description: '' },
        is_from: { type: 'string', description: 'start', example_value: null },
        when: { type: 'string', description: 'day', example_value: false },
      },
      required: ['is_id', 'flag'],
      optional: ['is_from', 'when'],
    });
  });

  it('starts the lists with "" like the current StableToolBench code when asked', () => {
    const fn = toolBenchFunction(api, { emptyNamePlaceholders: true });
    expect(fn.parameters.required).toEqual(['', 'is_id', 'flag']);
    expect(fn.parameters.optional).toEqual(['', 'is_from', 'when']);
  });

  it('leaves out the description sentence for an empty API description and uses a given tool stem', () => {
    expect(
      toolBenchFunction(
        { tool_name: 'X', api_name: 'Y', api_description: ' \n' },
        { toolName: 'stem' },
      ),
    ).toEqual({
      name: 'y_for_stem',
      description: 'This is the subfunction for tool "stem", you can use this tool.',
      parameters: { type: 'object', properties: {}, required: [], optional: [] },
    });
  });
});
