import type { INode } from 'n8n-workflow';

/** The node an error names, for what the pipeline throws outside a workflow run. */
export const node: INode = {
	id: 'n1',
	name: 'Book',
	type: 'partnerLogistics',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
