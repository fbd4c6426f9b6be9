import { WorkflowBuilder, type WorkflowDefinition } from '@skein/core';
import { POLICY_TOOL_NAME } from './tools.js';

export const SYSTEM_PROMPT =
  'You are a travel assistant. Use the tools for facts and arithmetic; never guess prices.';

/**
 * A travel assistant in two phases. Phase one plans with the initial tools; a CONTEXT_PROCESSOR
 * then clears the conversation (system messages too); phase two still sees the initial tools'
 * description, and a currency tool added mid-run. A ROUTE on the traveller's tier adds perks,
 * and the traveller confirms the booking before it is made.
 */
export function travelWorkflow(): WorkflowDefinition {
  return new WorkflowBuilder('travel-assistant', '1.0.0')
    .describe({ name: 'Travel assistant', description: 'Plans, prices and books a short trip' })
    .initialTools(['calculator', 'clock', 'lookup_destination', POLICY_TOOL_NAME])
    .variables({
      schema: {
        type: 'object',
        properties: {
          traveller: { type: 'string' },
          tier: { enum: ['standard', 'gold'] },
          currency: { enum: ['EUR', 'USD', 'GBP', 'JPY'] },
        },
        required: ['traveller', 'tier', 'currency'],
      },
      defaults: { traveller: 'Ada', tier: 'gold', currency: 'USD' },
    })
    .start('start', { name: 'Start' })
    .llm(
      'plan',
      {
        // The thread starts with the system prompt and the traveller's request (see run-travel).
        maxToolRounds: 6,
        outputVariable: 'plan',
      },
      { name: 'Phase 1: plan the trip' },
    )
    .contextProcessor('reset', [{ operation: 'clear', keepSystemMessage: false }], {
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
    .end('end', { output: 'vars.booking or "not booked"' }, { name: 'End' })
    .chain('start', 'plan', 'reset', 'quote', 'tier')
    .edge('tier', 'perks', { when: 'vars.tier == "gold"' })
    .edge('tier', 'confirm')
    .chain('perks', 'confirm', 'decision')
    .edge('decision', 'book', { when: 'vars.answer in ["yes", "y", "Yes", "YES"]' })
    .edge('decision', 'end')
    .chain('book', 'end')
    .build();
}
