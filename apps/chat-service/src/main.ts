import { startChatService } from './chat-service.js';
import { settings } from './settings.js';

const service = await startChatService(settings());
console.log(`chat service on ${service.url}`);
