import { WorkflowBuilder, type WorkflowDefinition } from '@skein/core';
import { POLICY_TOOL_NAME, WEATHER_TOOL_NAME } from './tools.js';

export const SYSTEM_PROMPT =
  'You are a travel assistant. Use the tools for facts and arithmetic; never guess prices.';

/** The workflow the SUBWORKFLOW node runs as a child thread. */
const ITINERARY_WORKFLOW_ID = 'itinerary-writer';

/** The cities compared when the thread's variables do not name others. */
export const DEFAULT_CITIES = ['Lisbon', 'Kyoto', 'Reykjavik'];

/**
 * A travel assistant. A MAP compares the candidate cities in parallel (one branch per city, each
 * a child thread using the lookup, the calculator and the MCP weather tool), and its JOIN gathers
 * the verdicts in city order and adds them to the conversation. Phase one plans with the initial
 * tools; a CONTEXT_PROCESSOR then clears the conversation (system messages too); phase two still
 * sees the initial tools' description, and a currency tool added mid-run. A ROUTE on the
 * traveller's tier adds perks, the traveller confirms the booking, and a SUBWORKFLOW (a second
 * registered workflow, run as a child thread) writes the itinerary from the plan and comparison.
 */
export function travelWorkflow(): WorkflowDefinition {
  return new WorkflowBuilder('travel-assistant', '1.0.0')
    .describe({ name: 'Travel assistant', description: 'Plans, prices and books a short trip' })
    .initialTools([
      'calculator',
      'clock',
      'lookup_destination',
      POLICY_TOOL_NAME,
      WEATHER_TOOL_NAME,
    ])
    .variables({
      schema: {
        type: 'object',
        properties: {
          traveller: { type: 'string' },
          tier: { enum: ['standard', 'gold'] },
          currency: { enum: ['EUR', 'USD', 'GBP', 'JPY'] },
          cities: { type: 'array', items: { type: 'string' }, minItems: 1 },
        },
        required: ['traveller', 'tier', 'currency'],
      },
      defaults: { traveller: 'Ada', tier: 'gold', currency: 'USD', cities: DEFAULT_CITIES },
    })
    .start('start', { name: 'Start' })
    .node({
      id: 'compare',
      type: 'MAP',
      name: 'Compare the destinations',
      // Each branch forks the conversation: it sees the request, then asks about its own city.
      config: {
        items: 'vars.cities',
        itemVariable: 'city',
        start: 'weigh',
        join: 'gather',
        conversation: 'forked',
      },
    })
    .llm(
      'weigh',
      {
        prompt:
          'Weigh up {{ vars.city }} for 4 days in April: look it up, check the April weather, and compute 4 days plus a return flight.',
        tools: ['lookup_destination', WEATHER_TOOL_NAME, 'calculator'],
        maxToolRounds: 4,
        outputVariable: 'verdict',
      },
      { name: 'Weigh up one city' },
    )
    .node({
      id: 'gather',
      type: 'JOIN',
      name: 'Gather the comparison',
      // The verdicts in city order, whatever order the branches finished in; each branch's
      // final answer is also added to the conversation for phase one to read.
      config: { output: 'vars.verdict', outputVariable: 'comparison', merge: 'final-message' },
    })
    .llm(
      'plan',
      {
        // The thread starts with the system prompt and the traveller's request (see run-travel).
        maxToolRounds: 6,
        outputVariable: 'plan',
      },
      { name: 'Phase 1: plan the trip' },
    )
    .contextProcessor('reset', [{ type: 'CLEAR', keepSystemMessage: false }], {
      name: 'Clear the conversation',
    })
    .llm(
      'quote',
      {
        prompt:
          'Here is the plan: {{ vars.plan }}\nQuote the total in {{ vars.currency }} for {{ vars.traveller }}.',
        maxToolRounds: 4,
        outputVariable: 'quote',
      },
      { name: 'Phase 2: quote in the traveller’s currency' },
    )
    .route('tier', { name: 'Tier?' })
    .variable(
      'perks',
      { values: { perk: 'lounge access and free seat selection' } },
      { name: 'Gold perks' },
    )
    .userInteraction(
      'confirm',
      { prompt: 'Book this trip for {{ vars.traveller }}? (yes/no)', variable: 'answer' },
      { name: 'Ask the traveller' },
    )
    .route('decision', { name: 'Booked?' })
    .variable(
      'book',
      {
        assign: { booking: '"confirmed for " + vars.traveller' },
        message: { role: 'assistant', content: 'Booked: {{ vars.quote }}' },
      },
      { name: 'Book' },
    )
    .node({
      id: 'itinerary',
      type: 'SUBWORKFLOW',
      name: 'Write the itinerary',
      config: {
        workflow: ITINERARY_WORKFLOW_ID,
        version: '1.0.0',
        input: {
          traveller: 'vars.traveller',
          plan: 'vars.plan',
          comparison: 'vars.comparison',
        },
        outputVariable: 'itinerary',
      },
    })
    .end('end', { output: 'vars.booking or "not booked"' }, { name: 'End' })
    .chain('start', 'compare')
    .chain('weigh', 'gather', 'plan')
    .chain('plan', 'reset', 'quote', 'tier')
    .edge('tier', 'perks', { when: 'vars.tier == "gold"' })
    .edge('tier', 'confirm')
    .chain('perks', 'confirm', 'decision')
    .edge('decision', 'book', { when: 'vars.answer in ["yes", "y", "Yes", "YES"]' })
    .edge('decision', 'end')
    .chain('book', 'itinerary', 'end')
    .build();
}

/**
 * The second workflow: writes a day-by-day itinerary from the plan and the comparison. It runs as
 * a child thread of the travel assistant, with a conversation of its own (isolated).
 */
export function itineraryWorkflow(): WorkflowDefinition {
  return new WorkflowBuilder(ITINERARY_WORKFLOW_ID, '1.0.0')
    .describe({ name: 'Itinerary writer', description: 'Writes a day-by-day itinerary' })
    .initialTools(['lookup_destination'])
    .variables({
      schema: {
        type: 'object',
        properties: {
          traveller: { type: 'string' },
          plan: { type: 'string' },
          comparison: { type: 'array', items: { type: 'string' } },
        },
        required: ['traveller', 'plan', 'comparison'],
      },
    })
    .start('itinerary-start', { name: 'Start the itinerary' })
    .llm(
      'write-itinerary',
      {
        systemPrompt: 'You write short, concrete day-by-day travel itineraries.',
        prompt:
          'Write a day-by-day itinerary for {{ vars.traveller }} from this plan: {{ vars.plan }}\nThe comparison it came from: {{ vars.comparison }}',
        tools: ['lookup_destination'],
        maxToolRounds: 2,
        outputVariable: 'itinerary',
      },
      { name: 'Write the itinerary' },
    )
    .end('itinerary-end', { output: 'vars.itinerary' }, { name: 'Itinerary written' })
    .chain('itinerary-start', 'write-itinerary', 'itinerary-end')
    .build();
}
