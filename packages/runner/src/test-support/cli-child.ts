// The CLI in its own process for tests: node --import tsx cli-child.ts <args…>
import '../cli/cli.js';
