/** The floor: an async function call per step, a counter and an array push. */
export async function plainLoop(n: number, withMessage: boolean): Promise<void> {
  let count = 0;
  const messages: { role: string; content: string }[] = [];
  const step = async () => {
    count++;
    if (withMessage) messages.push({ role: 'user', content: `tick ${count}` });
  };
  while (count < n) await step();
}
