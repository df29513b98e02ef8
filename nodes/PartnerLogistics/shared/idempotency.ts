import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

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

/** preSend: every POST carries an Idempotency-Key, no GET does. */
export async function setIdempotencyKey(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const headers = { ...(requestOptions.headers ?? {}) } as IDataObject;
	delete headers['Idempotency-Key'];
	if ((requestOptions.method ?? 'GET').toUpperCase() === 'POST') {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const given = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
		headers['Idempotency-Key'] = given || deriveIdempotencyKey(scopeOf(this));
	}
	return { ...requestOptions, headers };
}

function scopeOf(context: IExecuteSingleFunctions): IdempotencyScope {
	const node = context.getNode();
	return {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		executionId: context.getExecutionId() ?? '',
		nodeId: node.id,
		runIndex: context.getWorkflowDataProxy(context.getItemIndex()).$runIndex as number,
		itemIndex: context.getItemIndex(),
		action: `${context.getNodeParameter('resource') as string}.${context.getNodeParameter('operation') as string}`,
	};
}
