// What an answering fault sends instead of the API: error JSON, a redirect, an HTML page, nothing,
// or an answer written over time; and what a refuse or bigList rule answers instead of the handler.
import { ApiError } from './errors';
import { bigList, gzipBomb, noHeaders, trickle, type StreamingWriter } from './streamingAnswers';
import type {
	AppliedFault,
	BigListFault,
	FaultRule,
	ListShape,
	RefuseFault,
	RefusalStatus,
	StatusFault,
} from './types';

export interface FaultAnswer {
	status: number;
	body: string;
	headers: Record<string, string>;
	/** Default application/json; charset=utf-8. */
	contentType?: string;
	fault: AppliedFault;
	/** Written over time by this writer instead of status, headers and body at once. */
	stream?: StreamingWriter;
}

export const STREAM_DEFAULTS = {
	trickleIntervalMs: 1000,
	trickleStatus: 200,
	bombInflatedBytes: 2 ** 30,
	bigListRecords: 50_000,
	bigListRecordBytes: 1000,
} as const;

const FAULT_CODES: Record<StatusFault['status'], [string, string]> = {
	500: ['INTERNAL_ERROR', 'Internal server error (injected by the sandbox).'],
	502: ['BAD_GATEWAY', 'Bad gateway (injected by the sandbox).'],
	503: ['SERVICE_UNAVAILABLE', 'Service temporarily unavailable (injected by the sandbox).'],
	429: ['RATE_LIMITED', 'Rate limit exceeded (injected by the sandbox).'],
};

const REFUSAL_CODES: Record<RefusalStatus, string> = {
	400: 'VALIDATION_ERROR',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	422: 'UNPROCESSABLE_ENTITY',
};

const HTML = 'text/html; charset=utf-8';

export const DEFAULT_HTML_TITLES = {
	html200: 'Partner Logistics | Sign in',
	html502: '502 Bad Gateway',
} as const;

/** The JSON error of an injected status; a 429 always carries Retry-After (default 1 s). */
export function statusAnswer(
	status: StatusFault['status'],
	retryAfterSeconds: number | undefined,
	fault: AppliedFault,
): FaultAnswer {
	const [code, message] = FAULT_CODES[status];
	const retryAfter = retryAfterSeconds ?? (status === 429 ? 1 : undefined);
	const headers: Record<string, string> =
		retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
	const details = retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter };
	const error = new ApiError(status, code, message, { injected: true, ...details }, headers);
	return { status, body: JSON.stringify(error.body), headers: error.headers, fault };
}

/** What a bigList rule answers in place of a GET's handler: the list, streamed. */
export function bigListAnswer(rule: BigListFault, path: string, listShape: ListShape): FaultAnswer {
	const spec = {
		records: rule.records ?? STREAM_DEFAULTS.bigListRecords,
		recordBytes: rule.recordBytes ?? STREAM_DEFAULTS.bigListRecordBytes,
		gzip: rule.gzip ?? false,
		path,
		listShape,
	};
	return { status: 200, body: '', headers: {}, fault: 'bigList', stream: bigList(spec) };
}

/** What a refuse rule answers in place of the handler: the error JSON, marked injected. */
export function refusalAnswer(rule: RefuseFault): FaultAnswer {
	const status = rule.status ?? 400;
	const code = rule.code ?? REFUSAL_CODES[status];
	const message = rule.message ?? `Refused by the sandbox (injected refuse rule): ${code}.`;
	const field = rule.field === undefined ? {} : { field: rule.field };
	const error = new ApiError(status, code, message, { ...field, injected: true });
	return { status, body: JSON.stringify(error.body), headers: error.headers, fault: 'refuse' };
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A login page (what a misrouted request or an expired SSO session gets back with 200). */
function loginPage(title: string): string {
	return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><form method="post" action="/login"><h1>Sign in</h1>
<input name="email" type="email"><input name="password" type="password"><button>Sign in</button>
</form></body>
</html>
`;
}

/** A reverse proxy's error page, as nginx sends it when the upstream is down. */
function proxyErrorPage(title: string): string {
	return `<html>
<head><title>${escapeHtml(title)}</title></head>
<body>
<center><h1>${escapeHtml(title)}</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
}

/** The answer of a rule that answers on arrival, before the API runs (PHASE_OF in faults.ts). */
export function answerFor(
	rule: FaultRule,
	redirectOrigin: string,
	fullPathAndQuery: string,
): FaultAnswer {
	switch (rule.kind) {
		case undefined:
		case 'status':
			return statusAnswer(rule.status, rule.retryAfterSeconds, 'status');
		case 'redirect':
			return {
				status: rule.status ?? 302,
				body: '',
				headers: { Location: `${redirectOrigin}${fullPathAndQuery}` },
				fault: 'redirect',
			};
		case 'html200':
			return {
				status: 200,
				body: loginPage(rule.title ?? DEFAULT_HTML_TITLES.html200),
				headers: {},
				contentType: HTML,
				fault: 'html200',
			};
		case 'html502':
			return {
				status: 502,
				body: proxyErrorPage(rule.title ?? DEFAULT_HTML_TITLES.html502),
				headers: {},
				contentType: HTML,
				fault: 'html502',
			};
		case 'empty200':
			return { status: 200, body: '', headers: {}, fault: 'empty200' };
		case 'trickle': {
			const status = rule.status ?? STREAM_DEFAULTS.trickleStatus;
			const interval = rule.intervalMs ?? STREAM_DEFAULTS.trickleIntervalMs;
			return { status, body: '', headers: {}, fault: 'trickle', stream: trickle(status, interval) };
		}
		case 'noHeaders':
			return { status: 0, body: '', headers: {}, fault: 'noHeaders', stream: noHeaders };
		case 'gzipBomb': {
			const inflated = rule.inflatedBytes ?? STREAM_DEFAULTS.bombInflatedBytes;
			return { status: 200, body: '', headers: {}, fault: 'gzipBomb', stream: gzipBomb(inflated) };
		}
		default:
			throw new Error(`sandbox: ${rule.kind} does not answer before the API`);
	}
}
