import { jsonParse } from 'n8n-workflow';

/** Error descriptions stay readable in the editor and in logs: the API's body is cut here. */
export const MAX_DESCRIPTION_CHARS = 2000;

export const parseJson = (rawBody: string): unknown =>
	rawBody.trim() === '' ? undefined : jsonParse(rawBody, { fallbackValue: () => undefined });

export const answerEvidence = (status: number, rawBody: string, secrets: string[]) =>
	`The API answered ${status} with: ${evidence(rawBody, secrets)}`;

/** The body as evidence: HTML reduced to its title, everything capped and secrets redacted. */
export function evidence(rawBody: string, secrets: string[] = []): string {
	if (rawBody.trim() === '') return '(no body)';
	let text = rawBody;
	if (/^\s*</.test(rawBody)) {
		const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(rawBody)?.[1]?.trim();
		text = `an HTML page${title ? ` titled "${title.replace(/\s+/g, ' ').slice(0, 200)}"` : ''}`;
	}
	text = redact(text, secrets);
	return text.length > MAX_DESCRIPTION_CHARS
		? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… (${text.length - MAX_DESCRIPTION_CHARS} more characters cut)`
		: text;
}

export function redact(text: string, secrets: string[]): string {
	return secrets
		.filter((secret) => secret.length >= 4)
		.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** A Location without credentials or query (they may carry tokens), for the message. */
export function safeLocation(location: string | undefined): string {
	if (!location) return '(no Location header)';
	try {
		const url = new URL(location);
		return `${url.protocol}//${url.host}${url.pathname}`;
	} catch {
		return location.split('?')[0].slice(0, 200);
	}
}
