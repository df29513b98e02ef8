import type { INodeProperties } from 'n8n-workflow';

import { caseIdField, caseTextField } from './shared';

export const supportCaseCloseDescription: INodeProperties[] = [
	caseIdField('close'),
	caseTextField(
		'close',
		'note',
		'Note',
		'Why the case is closed',
		'e.g. Parcel found and delivered',
	),
];
