import type { INodeProperties } from 'n8n-workflow';

import { INFERRED_PATH } from '../../shared/descriptions';
import { operation, operationPicker } from '../../shared/operation';
import type { ParameterReader } from '../../shared/routeBody';
import { supportCaseAddCommentDescription } from './addComment';
import { supportCaseCloseDescription } from './close';
import { supportCaseBody, supportCaseCreateDescription } from './create';
import { supportCaseGetDescription } from './get';
import { supportCaseGetManyDescription } from './getAll';
import { supportCaseReopenDescription } from './reopen';

const casePath = '/partner-api/support-cases/{caseId}';
const textBody = (name: string) => (read: ParameterReader) => ({ [name]: read(name) });

export const supportCaseDescription: INodeProperties[] = [
	operationPicker(
		'supportCase',
		[
			operation({
				name: 'Add Comment',
				value: 'addComment',
				action: 'Add a comment to a support case',
				description: 'Add a partner-visible comment (needs the support:create capability)',
				method: 'POST',
				path: `${casePath}/comments`,
				body: textBody('message'),
			}),
			operation({
				name: 'Close',
				value: 'close',
				action: 'Close a support case',
				description: 'Close a case with a note (needs the support:create capability)',
				method: 'POST',
				path: `${casePath}/close`,
				body: textBody('note'),
			}),
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a support case',
				description: 'Open a support case (needs the support:create capability)',
				method: 'POST',
				path: '/partner-api/support-cases',
				body: supportCaseBody,
			}),
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a support case',
				description: `Fetch one case with its partner-visible timeline (needs support:read). ${INFERRED_PATH}.`,
				method: 'GET',
				path: casePath,
			}),
			operation({
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many support cases',
				description: 'List support cases, e.g. the OPEN ones (needs the support:read capability)',
				method: 'GET',
				path: '/partner-api/support-cases',
			}),
			operation({
				name: 'Reopen',
				value: 'reopen',
				action: 'Reopen a support case',
				description: 'Reopen a closed case with a reason (needs the support:create capability)',
				method: 'POST',
				path: `${casePath}/reopen`,
				body: textBody('reason'),
			}),
		],
		'create',
	),
	...supportCaseCreateDescription,
	...supportCaseGetManyDescription,
	...supportCaseGetDescription,
	...supportCaseAddCommentDescription,
	...supportCaseCloseDescription,
	...supportCaseReopenDescription,
];
