import type { INodeProperties } from 'n8n-workflow';

import { idField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { text } from '../../route/rules';

export const caseId = idField('caseId', 'Case ID', 'The support case', 'case_123');

export const casePath = '/partner-api/support-cases/{caseId}';

/** What every support case text says beneath it. */
const VISIBLE =
	'Visible to your organization; attach evidence in the partner portal, never as private storage links';

/** A case action whose body is one required text (comment, close, reopen): field, body, check. */
export function caseText(
	name: string,
	displayName: string,
	description: string,
	placeholder: string,
): Pick<OperationSpec, 'fields' | 'body' | 'check'> {
	const field: INodeProperties = {
		displayName,
		name,
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder,
		description,
		hint: VISIBLE,
	};
	const body: NonNullable<OperationSpec['body']> = ({ read }) => ({ [name]: read(name) });
	return { fields: [caseId, field], body, check: (sent) => text(sent[name], name) };
}
