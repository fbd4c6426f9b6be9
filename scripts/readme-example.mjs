import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The example a package README opens with: its first ```ts block. Shared by the README check
// (run inside the monorepo) and the consumer check (run from an npm-installed project).
export function readmeExample(readme) {
  return /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
}

// Further blocks a README marks with ```ts runnable: run by the README check too.
export function runnableExamples(readme) {
  return [...readme.matchAll(/```ts runnable\n([\s\S]*?)```/g)].map((m) => m[1]);
}

// The install lines of a README: every `npm install …` (or `npm i …`) line of its ```sh blocks,
// continuation lines (ending in `\`) joined. The consumer check runs a README's one install line
// verbatim in a fresh project, so a README must have exactly one.
export function installLines(readme) {
  return [...readme.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].replace(/\\\n/g, ' ').split('\n'))
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => /^npm (install|i)( |$)/.test(line));
}

// The packages an install line names: its words after `npm install` that are not flags, each
// without its version range (`openai@6` → `openai`, `@skein/core@^0.1` → `@skein/core`).
export function installedNames(line) {
  return line
    .split(' ')
    .slice(2)
    .filter((word) => word !== '' && !word.startsWith('-'))
    .map((word) => word.replace(/(.)@.*$/, '$1'));
}

// Whether installing `names` installs `target`: one of them is it, or depends on it through the
// given manifests (our packages': their dependencies and peers, which npm installs too).
export function installs(names, manifests, target) {
  const byName = new Map(manifests.map((m) => [m.name, m]));
  const seen = new Set();
  const reaches = (name) => {
    if (name === target) return true;
    const manifest = byName.get(name);
    if (!manifest || seen.has(name)) return false;
    seen.add(name);
    return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).some(reaches);
  };
  return names.some(reaches);
}

// The model the root README's agent talks to: the testkit's OpenAI-compatible server (from the
// built package in this repository), scripted to call the `weather` tool once and then answer.
// Shared by the README check and the consumer check.
export async function startRootReadmeModel(root) {
  const testkit = join(root, 'packages', 'testkit', 'dist', 'index.js');
  const { startOpenAICompatibleServer } = await import(pathToFileURL(testkit).href);
  return startOpenAICompatibleServer({
    script: (request) =>
      request.body.messages?.at(-1)?.role === 'tool'
        ? { content: 'It is sunny.' }
        : { toolCalls: [{ name: 'weather', arguments: { city: 'Lisbon' } }] },
  });
}
