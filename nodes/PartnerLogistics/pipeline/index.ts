// How the node runs an operation on its items: the door its description and `execute` use.
// Behind it, each room has its own door: operation/, request/, rateLimit/, idempotency/.
export { selectedOperation } from './operation';
export { optionsDescription } from './request';
export { runOperation } from './run';
