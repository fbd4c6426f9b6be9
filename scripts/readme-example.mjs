// The example a package README opens with: its first ```ts block. Shared by the README check
// (run inside the monorepo) and the consumer check (run from an npm-installed project).
export function readmeExample(readme) {
  return /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
}

// Further blocks a README marks with ```ts runnable: run by the README check too.
export function runnableExamples(readme) {
  return [...readme.matchAll(/```ts runnable\n([\s\S]*?)```/g)].map((m) => m[1]);
}
