import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

export interface IdempotencyScope {
	instanceId: string;
	workflowId: string;
	executionId: string;
	nodeId: string;
	runIndex: number;
	itemIndex: number;
	/** `resource.operation`, so quote and booking of one item never share a key. */
	action: string;
}

/**
 * The default Idempotency-Key: the same for every try of one item in one node run (n8n's Retry
 * On Fail and our own 429/503 retries), different for another item, run, node, action,
 * workflow, execution or n8n instance. Hashed so no workflow detail leaks into API logs.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	const digest = createHash('sha256')
		.update(
			[
				scope.instanceId,
				scope.workflowId,
				scope.executionId,
				scope.nodeId,
				scope.runIndex,
				scope.itemIndex,
				scope.action,
			].join('\u0000'),
		)
		.digest('hex');
	return `n8n-${scope.action}-${digest.slice(0, 40)}`;
}

/** The scope of a node run; `itemIndex` and `action` are filled in per item. */
export function runScope(
	context: IExecuteFunctions,
	action: string,
): Omit<IdempotencyScope, 'itemIndex'> {
	return {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		executionId: context.getExecutionId() ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
	};
}
