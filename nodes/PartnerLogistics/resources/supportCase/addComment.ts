import type { OperationSpec } from '../../pipeline/operation';
import { casePath, caseText } from './fields';

export const supportCaseAddComment: OperationSpec = {
	name: 'Add Comment',
	value: 'addComment',
	subtitle: 'Comment on Support Case',
	capability: 'support:create',
	action: 'Add a comment to a support case',
	description: 'Add a partner-visible comment (needs the support:create capability)',
	...caseText('message', 'Message', 'The comment to add', 'The recipient is available after 3 pm'),
	method: 'POST',
	path: `${casePath}/comments`,
};
