/**
 * How the node runs an operation on its items: the door its description and `execute` use. Behind
 * it, each room with its own door: `operation/` (what an operation declares), `request/` (the one
 * way to the API), `rateLimit/` (pacing per API key), `idempotency/` (an item's Idempotency-Key).
 */
export { selectedOperation } from './operation';
export { optionsDescription } from './request';
export { runOperation } from './run';
