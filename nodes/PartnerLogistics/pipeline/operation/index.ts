/**
 * What an operation declares (form, request, answer), and the item's request it makes: the door of
 * the run, the resources, the route and payment forms, the watches and the pickers.
 */
export { itemError, pathOf, problemMessage, referentOf, requestOf } from './itemRequest';
export {
	isReadOnly,
	selectedOperation,
	type BodyInput,
	type OperationSpec,
	type ResourceSpec,
} from './spec';
