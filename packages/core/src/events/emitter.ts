import { EventEmitter } from 'eventemitter3';
import type { SkeinEventMap } from './event-map.js';

type Listeners = { [K in keyof SkeinEventMap]: (payload: SkeinEventMap[K]) => void };

/** The engine's typed event emitter (eventemitter3). */
export class SkeinEmitter extends EventEmitter<Listeners> {}
