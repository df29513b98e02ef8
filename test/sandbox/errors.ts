// Every non-2xx answer of the sandbox is an ApiError thrown by whoever finds the problem.

export interface ErrorBody {
	code: string;
	message: string;
	field?: string;
	[extra: string]: unknown;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details: { field?: string; [k: string]: unknown } = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	get body(): ErrorBody {
		return { code: this.code, message: this.message, ...this.details };
	}
}

export function invalid(field: string, message: string, code = 'VALIDATION_ERROR'): ApiError {
	return new ApiError(400, code, message, { field });
}

/** The same answer whether the id never existed or belongs to another organization. */
export function notFound(what: string, id: string): ApiError {
	return new ApiError(404, 'NOT_FOUND', `${what} ${id} was not found in this organization.`);
}

export function conflict(code: string, message: string): ApiError {
	return new ApiError(409, code, message);
}
