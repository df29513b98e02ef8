import { idField } from '../../shared/descriptions';

export const caseIdField = (operation: string) =>
	idField(
		'caseId',
		'Case ID',
		{ resource: ['supportCase'], operation: [operation] },
		'The support case',
		'case_123',
	);

/** A required free-text field of a support case action (comment, close, reopen). */
export const caseTextField = (
	operation: string,
	name: string,
	displayName: string,
	description: string,
	placeholder: string,
) => ({
	displayName,
	name,
	type: 'string' as const,
	typeOptions: { rows: 3 },
	required: true,
	default: '',
	placeholder,
	description,
	hint: 'Visible to your organization; attach evidence in the partner portal, never as private storage links',
	displayOptions: { show: { resource: ['supportCase'], operation: [operation] } },
});
