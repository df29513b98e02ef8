import { compact } from '../../pipeline/problem';
import { numberOf } from '../../route/numbers';
import { caseStatus, supportCaseGetMany } from '../../resources/supportCase/getAll';
import { textOf, type WatchSpec } from '../watch';

export const supportCaseWatch: WatchSpec = {
	name: 'New or Changed Support Case',
	value: 'supportCase',
	action: 'On new or changed support case',
	description: 'Lists support cases by status (needs the support:read capability)',
	subtitle: 'Support cases',
	record: 'support case',
	records: 'support cases',
	operation: supportCaseGetMany,
	identity: {
		idField: {
			displayName: 'Case ID Field',
			name: 'caseIdField',
			type: 'string',
			default: 'caseId',
			placeholder: 'e.g. caseId',
			description: 'The field of a case record that identifies the case',
			hint: 'Inferred: the API documentation names caseId as the path parameter of a case but shows no record fields. Change it if your cases carry their identifier in another field. Dots read nested fields.',
		},
	},
	query: (read) =>
		compact({ status: textOf(read('status')), limit: numberOf(read('limit') as string, 'limit') }),
	narrowedBy: (read) => `status=${textOf(read('status'))}`,
	fields: [
		{
			...caseStatus,
			description: 'Only cases with this status are listed and watched',
			hint: `${caseStatus.hint}. A case that leaves this status is no longer listed, so its change is not seen.`,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: 'Each poll watches the cases one list request returns; raise it if more cases than this have the status',
		},
	],
};
