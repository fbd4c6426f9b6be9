import { describe, expectTypeOf, it } from 'vitest';
import { SkeinEngine, type Tool, type ToolExecutionContext, ToolRegistry } from '../index.js';

// A type alias: an interface has no implicit index signature, see the last test.
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

  it('does not yet take a tool whose arguments are an interface (no index signature)', () => {
    // Known gap: `register(tool: Tool)` means `Tool<Record<string, unknown>>`, which an interface
    // is not. When registration becomes generic these directives fail: turn them into checks.
    interface Args {
      readonly city: string;
    }
    const tool = weather as unknown as Tool<Args>;
    // @ts-expect-error: see above
    new ToolRegistry().register(tool);
    // @ts-expect-error: see above
    new SkeinEngine().registerTool(tool);
  });

  it('refuses a tool without its contract fields', () => {
    // @ts-expect-error: no parameters schema
    const broken: Tool<WeatherArgs> = { name: 'x', description: '', execute: () => null };
    expectTypeOf(broken).toEqualTypeOf<Tool<WeatherArgs>>();
  });
});
