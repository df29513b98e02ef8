import { idField, textField } from '../../descriptions/fields';
import type { BodyBuilder, OperationSpec } from '../../pipeline/operation';
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
	const body: BodyBuilder = ({ read }) => ({ [name]: read(name) });
	return {
		fields: [caseId, textField(name, displayName, description, placeholder, VISIBLE)],
		body,
		check: (sent) => text(sent[name], name),
	};
}
