/**
 * What an operation declares (form, request, answer), and the item's request it makes: the door of
 * the run, the resources, the route and payment forms, the watches and the pickers.
 */
export type { BodyInput } from './body';
export { pathOf } from './path';
export { itemError, problemMessage, referentOf, requestOf } from './itemRequest';
export { isReadOnly, selectedOperation, type OperationSpec, type ResourceSpec } from './spec';
