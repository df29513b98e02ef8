import { idField, textField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { text } from '../../route/rules';

export const caseId = idField('caseId', 'Case ID', 'The support case', 'case_123');

export const casePath = '/partner-api/support-cases/{caseId}';

/** A case action whose body is one required text (comment, close, reopen): field, body, check. */
export function caseText(
	name: string,
	displayName: string,
	description: string,
	example: string,
): Pick<OperationSpec, 'fields' | 'body' | 'check'> {
	const field = textField(name, displayName, description, example, {
		typeOptions: { rows: 3 },
		required: true,
		hint: 'Visible to your organization; attach evidence in the partner portal, never as private storage links',
	});
	const body: NonNullable<OperationSpec['body']> = ({ read }) => ({ [name]: read(name) });
	return { fields: [caseId, field], body, check: (sent) => text(sent[name], name) };
}
