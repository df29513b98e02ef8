import { INFERRED_PATH } from '../../shared/descriptions';
import type { ResourceSpec } from '../../shared/operation';
import type { BodyInput } from '../../shared/body';
import { compact } from '../../shared/routeBody';
import { fail, required } from '../../shared/validate';
import { supportCaseAddCommentDescription } from './addComment';
import { supportCaseCloseDescription } from './close';
import { supportCaseBody, supportCaseCreateDescription } from './create';
import { supportCaseGetDescription } from './get';
import { supportCaseGetManyDescription } from './getAll';
import { supportCaseReopenDescription } from './reopen';

const casePath = '/partner-api/support-cases/{caseId}';
/** The one required text of a comment, close or reopen. */
const textBody =
	(name: string) =>
	({ read }: BodyInput) => {
		const text = read(name);
		if (typeof text !== 'string' || text.trim() === '') fail(required(name, text));
		return { [name]: text };
	};

export const supportCaseResource: ResourceSpec = {
	displayName: 'Support Case',
	value: 'supportCase',
	description: 'Open, comment on, close and reopen support cases',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Add Comment',
			value: 'addComment',
			subtitle: 'Comment on Support Case',
			capability: 'support:create',
			action: 'Add a comment to a support case',
			description: 'Add a partner-visible comment (needs the support:create capability)',
			method: 'POST',
			path: `${casePath}/comments`,
			body: textBody('message'),
		},
		{
			name: 'Close',
			value: 'close',
			capability: 'support:create',
			action: 'Close a support case',
			description: 'Close a case with a note (needs the support:create capability)',
			method: 'POST',
			path: `${casePath}/close`,
			body: textBody('note'),
		},
		{
			name: 'Create',
			value: 'create',
			capability: 'support:create',
			action: 'Create a support case',
			description: 'Open a support case (needs the support:create capability)',
			method: 'POST',
			path: '/partner-api/support-cases',
			body: supportCaseBody,
		},
		{
			name: 'Get',
			value: 'get',
			capability: 'support:read',
			action: 'Get a support case',
			description: `Fetch one case with its partner-visible timeline (needs support:read). ${INFERRED_PATH}.`,
			method: 'GET',
			path: casePath,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			subtitle: 'Get Many Support Cases',
			capability: 'support:read',
			action: 'Get many support cases',
			description: 'List support cases, e.g. the OPEN ones (needs the support:read capability)',
			method: 'GET',
			path: '/partner-api/support-cases',
			list: true,
			query: (read) =>
				compact({
					status: read('filters.status'),
					limit: read('returnAll') === true ? undefined : read('limit'),
				}),
		},
		{
			name: 'Reopen',
			value: 'reopen',
			capability: 'support:create',
			action: 'Reopen a support case',
			description: 'Reopen a closed case with a reason (needs the support:create capability)',
			method: 'POST',
			path: `${casePath}/reopen`,
			body: textBody('reason'),
		},
	],
	fields: [
		...supportCaseCreateDescription,
		...supportCaseGetManyDescription,
		...supportCaseGetDescription,
		...supportCaseAddCommentDescription,
		...supportCaseCloseDescription,
		...supportCaseReopenDescription,
	],
};
