/**
 * What is wrong with a field of an item, in words the user can act on, and the checks every form
 * shares: the door of the operations, the route and payment forms and the watches.
 */
export { compact, jsonObject, pathIdProblem } from './checks';
export {
	fail,
	firstProblem,
	HIDDEN,
	isGiven,
	required,
	ProblemError,
	type Problem,
} from './problem';
