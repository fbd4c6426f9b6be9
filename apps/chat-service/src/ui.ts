import type { ChatIfBusy } from '@skein/ai-sdk';
import { startChatUi } from './chat-ui.js';
import { settings } from './settings.js';

// The same settings as `start` (src/main.ts): a chat here is the thread of the same id there.
// CHAT_IF_BUSY: queue (default), steer, interrupt or reject; another value stops the start.
const ifBusy = process.env.CHAT_IF_BUSY as ChatIfBusy | undefined;
const ui = await startChatUi({ ...settings(), ifBusy });
console.log(`chat UI on ${ui.url}`);
