import { toMarkdown } from './harness.js';
import { toolbenchSuite } from './toolbench.bench.js';
const rows = await toolbenchSuite.run();
console.log(toMarkdown(rows));
console.log(toolbenchSuite.summarize?.(rows));
