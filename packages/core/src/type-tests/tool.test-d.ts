import { describe, expectTypeOf, it } from 'vitest';
import { SkeinEngine, type Tool, type ToolExecutionContext, ToolRegistry } from '../index.js';

type WeatherArgs = {
  readonly city: string;
  readonly days?: number;
};

const weather: Tool<WeatherArgs> = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args, context) => {
    expectTypeOf(args).toEqualTypeOf<WeatherArgs>();
    expectTypeOf(context).toEqualTypeOf<ToolExecutionContext>();
    return { city: args.city, days: args.days ?? 1 };
  },
};

describe('Tool<Args>', () => {
  it('types execute by its argument type', () => {
    expectTypeOf(weather.execute).parameter(0).toEqualTypeOf<WeatherArgs>();
    // @ts-expect-error: city is a string
    weather.execute({ city: 1 }, {} as ToolExecutionContext);
    // @ts-expect-error: city is required
    weather.execute({ days: 2 }, {} as ToolExecutionContext);
  });

  it('defaults to an object of unknown values', () => {
    expectTypeOf<Parameters<Tool['execute']>[0]>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('registers a typed tool where any tool is taken', () => {
    expectTypeOf(new ToolRegistry().register(weather)).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(new SkeinEngine().registerTool(weather)).toEqualTypeOf<SkeinEngine>();
    expectTypeOf(new SkeinEngine().registerTools([weather])).toEqualTypeOf<SkeinEngine>();
  });

  it('takes a tool whose arguments are an interface (no index signature)', () => {
    interface Args {
      readonly city: string;
    }
    const tool: Tool<Args> = {
      name: 'weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args) => args.city,
      needsApproval: (args) => args.city === 'Paris',
    };
    expectTypeOf(new ToolRegistry().register(tool)).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(new ToolRegistry().registerMany([tool, weather])).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(new ToolRegistry().registerAll([tool]).registered).toEqualTypeOf<
      readonly string[]
    >();
    expectTypeOf(new SkeinEngine().registerTool(tool)).toEqualTypeOf<SkeinEngine>();
    expectTypeOf(new SkeinEngine().registerTools([tool, weather])).toEqualTypeOf<SkeinEngine>();
  });

  it('refuses a tool without its contract fields', () => {
    // @ts-expect-error: no parameters schema
    const broken: Tool<WeatherArgs> = { name: 'x', description: '', execute: () => null };
    expectTypeOf(broken).toEqualTypeOf<Tool<WeatherArgs>>();
  });
});
