import type { INodeProperties } from 'n8n-workflow';

import { caseIdField, caseTextField } from './shared';

export const supportCaseAddCommentDescription: INodeProperties[] = [
	caseIdField('addComment'),
	caseTextField(
		'addComment',
		'message',
		'Message',
		'The comment to add',
		'e.g. The recipient is available after 3 pm',
	),
];
