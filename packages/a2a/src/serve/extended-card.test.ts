import { afterEach, describe, expect, it } from 'vitest';
import { type Served, serve } from './test-support/agent.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const authorize = (req: Request) => req.headers.get('authorization')?.replace(/^Bearer /, '');
const as = (caller: string) => ({ serviceParameters: { authorization: `Bearer ${caller}` } });

const CARD = {
  name: 'Echo agent',
  description: 'Answers what it is told',
  skills: [{ id: 'echo', name: 'Echo', description: 'Says it back' }],
};

describe('the extended agent card (GetExtendedAgentCard)', () => {
  it('gives each authenticated caller the public card with what `extended` adds for them', async () => {
    const asked: string[] = [];
    served = await serve({
      authorize,
      card: {
        ...CARD,
        extended: (caller) => {
          asked.push(caller);
          return caller === 'pro'
            ? {
                description: 'Answers what it is told, and translates',
                skills: [
                  { id: 'echo', name: 'Echo', description: 'Says it back, louder' },
                  { id: 'translate', name: 'Translate', description: 'Into any language' },
                ],
              }
            : {};
        },
      },
    });
    const { client, server } = served;
    const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as {
      capabilities: { extendedAgentCard: boolean };
      skills: { id: string }[];
    };
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['echo']);

    // The official client reads the extended card itself when the public one says there is one.
    const pro = await client.getAgentCard(as('pro'));
    expect(pro.description).toBe('Answers what it is told, and translates');
    expect(
      pro.skills.map((s: { id: string; description: string }) => [s.id, s.description]),
    ).toEqual([
      ['echo', 'Says it back, louder'],
      ['translate', 'Into any language'],
    ]);
    const basic = await client.getAgentCard(as('basic'));
    expect(basic.skills.map((s: { id: string }) => s.id)).toEqual(['echo']);
    expect(asked).toEqual(['pro', 'basic']);
  });

  it('without `extended` the card says so; `extended` needs `authorize`', async () => {
    served = await serve({ authorize });
    const card = await served.client.getAgentCard();
    expect(card.capabilities?.extendedAgentCard).toBe(false);
    // The method itself answers unsupported (-32004): see hostile-inputs.test.ts.
    await served.close();
    served = undefined;
    await expect(serve({ card: { ...CARD, extended: () => ({}) } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'card.extended',
    });
  });

  it('an `extended` that returns what no card can hold is an internal error, named', async () => {
    served = await serve({
      authorize,
      card: { ...CARD, extended: () => ({ skills: [{ id: '', name: 'x', description: 'y' }] }) },
    });
    await expect(served.client.getAgentCard(as('pro'))).rejects.toMatchObject({
      message: expect.stringContaining('card.extended().skills[0].id'),
    });
  });
});
