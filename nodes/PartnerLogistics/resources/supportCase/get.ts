import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { caseId, casePath } from './fields';

export const supportCaseGet: OperationSpec = {
	name: 'Get',
	value: 'get',
	capability: 'support:read',
	action: 'Get a support case',
	description: `Fetch one case with its partner-visible timeline (needs support:read). ${INFERRED_PATH}.`,
	fields: [caseId],
	method: 'GET',
	path: casePath,
};
