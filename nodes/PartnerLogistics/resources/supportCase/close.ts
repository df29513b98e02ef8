import type { OperationSpec } from '../../pipeline/operation';
import { casePath, caseText } from './fields';

export const supportCaseClose: OperationSpec = {
	name: 'Close',
	value: 'close',
	capability: 'support:create',
	action: 'Close a support case',
	description: 'Close a case with a note (needs the support:create capability)',
	...caseText('note', 'Note', 'Why the case is closed', 'Parcel found and delivered'),
	method: 'POST',
	path: `${casePath}/close`,
};
