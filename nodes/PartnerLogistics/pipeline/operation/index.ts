/**
 * What an operation declares (form, request, answer) and the words its body builder and check use:
 * the door of the resources, the route and payment forms, the watches and the pickers.
 */
export {
	compact,
	jsonObject,
	type BodyBuilder,
	type BodyCheck,
	type BodyInput,
	type BodyValue,
	type ParameterReader,
} from './body';
export { pathIdProblem, pathOf } from './path';
export {
	describeProblem,
	fail,
	firstProblem,
	HIDDEN,
	isGiven,
	labelsOf,
	ProblemError,
	required,
	type Problem,
} from './problem';
export { itemError, referentOf, requestOf } from './request';
export { isReadOnly, selectedOperation, type OperationSpec, type ResourceSpec } from './spec';
