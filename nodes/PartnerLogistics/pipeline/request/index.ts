import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	NodeApiError,
} from 'n8n-workflow';

import { runPacer } from '../rateLimit';
import { Deadlines } from './answerBounds';
import { editorSettings, readPollSettings, readRunSettings, type RunSettings } from './settings';
import type { Failure } from './errors';
import { answerEvidence, redact } from './evidence';
import { apiError, expectJson, sendRequest, sleeper, type ItemRequest, type Sending } from './send';
import {
	authenticatedSender,
	CREDENTIAL_TYPE,
	credentialTestSender,
	previewRequest,
	type ApiResponse,
	type Sender,
} from './transport';

export type { ApiResponse } from './transport';
export { describeFailure, type Failure } from './errors';
export { failsEveryRequest, type ItemRequest } from './send';
export { readListPage, readRecords } from './records';
export { optionsDescription } from './optionsForm';

/** What a request's errors say besides the status: the words before them, a 403's capability. */
type Wording = Pick<Sending, 'prefix' | 'capability'>;

/**
 * The one way to the API, for every run, tool call, poll, hub picker and credential test: paced
 * with every sender on its API key, retried as the Options allow; a failure says what to do.
 */
export interface ApiSession {
	readonly settings: RunSettings;
	/** The request's 2xx answer and JSON body (`expected` names it); else the error that explains. */
	read(
		request: ItemRequest,
		expected: string,
		wording?: Wording,
	): Promise<{ response: ApiResponse; body: unknown }>;
	/** The error for an unusable 2xx answer: `message`, then `why` and the answer itself. */
	unusable(response: ApiResponse, message: string, why: string): NodeApiError;
	/** The request as it would leave n8n, nothing sent (a dry run), its secrets masked. */
	preview(request: ItemRequest): ReturnType<typeof previewRequest>;
}

/** A node run's session, or a tool call's: the Options of item 0, cancelled with the execution. */
export async function runSession(
	context: IExecuteFunctions,
	options: Wording & { mutating: boolean },
): Promise<ApiSession> {
	const settings = await readRunSettings(context);
	const sender = authenticatedSender(context, settings.transport);
	return session(context.getNode(), settings, sender, options, context.getExecutionCancelSignal());
}

/** A poll's session: the polling trigger's Options; its GETs change nothing. */
export async function pollSession(context: IPollFunctions): Promise<ApiSession> {
	const settings = await readPollSettings(context);
	return session(context.getNode(), settings, authenticatedSender(context, settings.transport));
}

/** The hub picker's session: the Options' defaults, one request at a time. */
export async function pickerSession(ctx: ILoadOptionsFunctions): Promise<ApiSession> {
	const settings = editorSettings(await ctx.getCredentials(CREDENTIAL_TYPE), 'picker');
	return session(ctx.getNode(), settings, authenticatedSender(ctx, settings.transport));
}

/** The credential's Test button: no retries, failures in the dialog's own words (`explain`). */
export function credentialTestSession(
	context: ICredentialTestFunctions,
	{ data = {} }: ICredentialsDecrypted,
	explain: (failure: Failure) => string | undefined,
): ApiSession {
	const node = { name: 'Partner Logistics credential test' } as INode;
	const sender = credentialTestSender(context, data);
	const settings = editorSettings(data, 'credentialTest');
	return session(node, settings, sender, { mutating: false, explain });
}

function session(
	node: INode,
	settings: RunSettings,
	send: Sender,
	options: Pick<Sending, 'mutating' | 'capability' | 'explain'> = { mutating: false },
	signal?: AbortSignal,
): ApiSession {
	let sending: Sending | undefined;
	// The key's pacer is joined on the first request: a session that sends nothing leaves nothing.
	const joined = (): Sending => {
		if (sending) return sending;
		const { baseUrl, credentials } = settings.transport;
		const pacer = runPacer(baseUrl, String(credentials.apiKey ?? ''), settings.pacer, signal);
		const deadlines = new Deadlines(settings.transport.timeoutMs, signal);
		const wait = sleeper(signal);
		return (sending = { node, settings, send, pacer, signal, deadlines, wait, ...options });
	};
	return {
		settings,
		read: async (request, expected, wording) => {
			const run = { ...joined(), ...wording };
			const response = await sendRequest(run, request);
			return { response, body: expectJson(run, response, expected) };
		},
		unusable: (response, message, why) =>
			apiError(joined(), response, {
				message,
				description: `${why} ${answerEvidence(response.status, response.body, settings.secrets)}`,
			}),
		preview: async (request) => {
			const preview = await previewRequest(settings.transport, request);
			for (const [name, value] of Object.entries(preview.headers)) {
				preview.headers[name] = redact(String(value), settings.secrets);
			}
			return preview;
		},
	};
}
