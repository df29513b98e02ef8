/** All a sender learns: never which check failed. 503: our configuration, retried once fixed. */
export const SENDER_MESSAGES = {
	400: 'Expected JSON sent as application/json',
	401: 'Webhook signature verification failed',
	503: 'The receiver of these events is not configured correctly',
} as const;

const JSON_EXPECTED = 'Partner Logistics events are JSON sent with Content-Type: application/json.';
const SCHEME_MATCHES = 'Check that Signature Scheme and its options match what the sender sends.';
const refusal = (status: 400 | 401, what: string, check: string) => ({ status, what, check });

/** Each refusal's status (401: signature; 400: a verified body not JSON) and words for the log. */
export const REFUSALS = {
	'no-secret': refusal(
		401,
		'no signing secret yields an HMAC key',
		'Check the Webhook Signing Secret in the Partner Logistics API credential.',
	),
	'missing-header': refusal(401, 'a signature header is missing', SCHEME_MATCHES),
	'malformed-header': refusal(401, 'a signature or timestamp header is malformed', SCHEME_MATCHES),
	'stale-timestamp': refusal(
		401,
		'the signed timestamp is older than the timestamp tolerance',
		'A replay of an old delivery looks like this. If the sender is genuine, check its clock or raise Timestamp Tolerance.',
	),
	'future-timestamp': refusal(
		401,
		'the signed timestamp is further ahead than the timestamp tolerance',
		"Check the sender's clock, the Timestamp Unit option, or raise Timestamp Tolerance.",
	),
	'signature-mismatch': refusal(
		401,
		'the signature does not match the signing secret',
		'Check that the credential holds the secret the partner portal shows for this webhook (and Previous Signing Secret during a rotation), and that Signature Scheme matches.',
	),
	'not-json-content-type': refusal(400, 'the verified body was not sent as JSON', JSON_EXPECTED),
	'invalid-json': refusal(400, 'the verified body is not valid JSON', JSON_EXPECTED),
};

export type RefusalReason = keyof typeof REFUSALS;
/** Why a signature check refused a delivery: for the log and the editor, never for the sender. */
export type RejectionReason = Exclude<RefusalReason, 'not-json-content-type' | 'invalid-json'>;
