import { startChatUi } from './chat-ui.js';
import { settings } from './settings.js';

// The same settings as `start` (src/main.ts): a chat here is the thread of the same id there.
const ui = await startChatUi(settings());
console.log(`chat UI on ${ui.url}`);
