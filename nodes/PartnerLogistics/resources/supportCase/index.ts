import type { ResourceSpec } from '../../pipeline/operation';
import { supportCaseAddComment } from './addComment';
import { supportCaseClose } from './close';
import { supportCaseCreate } from './create';
import { supportCaseGet } from './get';
import { supportCaseGetMany } from './getAll';
import { supportCaseReopen } from './reopen';

export const supportCaseResource: ResourceSpec = {
	displayName: 'Support Case',
	value: 'supportCase',
	description: 'Open, comment on, close and reopen support cases',
	defaultOperation: 'create',
	operations: [
		supportCaseAddComment,
		supportCaseClose,
		supportCaseCreate,
		supportCaseGet,
		supportCaseGetMany,
		supportCaseReopen,
	],
};
