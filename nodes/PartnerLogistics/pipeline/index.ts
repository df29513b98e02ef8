/**
 * How the node runs an operation on its items: the door its description and `execute` use. The
 * rooms behind it, each with its own door: `operation/` (what an operation declares), `request/`
 * (the one way to the API), `rateLimit/` (how fast to send on an API key), `idempotency/` (which
 * Idempotency-Key an item is sent under).
 */
export { selectedOperation } from './operation';
export { optionsDescription, requestOptionsDescription } from './request';
export { runOperation } from './run';
