// Entry of the log maintenance thread (maintenance-thread.ts). Worker threads do not take over the
// main thread's module hooks, so the TypeScript sources are loaded through tsx here, as `node --import
// tsx` loads them in the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./maintenance-worker.ts');
