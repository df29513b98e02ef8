import type { INodeProperties } from 'n8n-workflow';

import { caseIdField, caseTextField } from './shared';

export const supportCaseReopenDescription: INodeProperties[] = [
	caseIdField('reopen'),
	caseTextField(
		'reopen',
		'reason',
		'Reason',
		'Why the case is reopened',
		'e.g. The parcel arrived damaged',
	),
];
