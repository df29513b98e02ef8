import type { OperationSpec } from '../../pipeline/operation';
import { casePath, caseText } from './fields';

export const supportCaseReopen: OperationSpec = {
	name: 'Reopen',
	value: 'reopen',
	capability: 'support:create',
	action: 'Reopen a support case',
	description: 'Reopen a closed case with a reason (needs the support:create capability)',
	...caseText('reason', 'Reason', 'Why the case is reopened', 'The parcel arrived damaged'),
	method: 'POST',
	path: `${casePath}/reopen`,
};
