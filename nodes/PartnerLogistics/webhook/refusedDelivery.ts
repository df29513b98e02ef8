/** All a sender learns: never which check failed. 503: our configuration, retried once fixed. */
export const SENDER_MESSAGES = {
	400: 'Expected JSON sent as application/json',
	401: 'Webhook signature verification failed',
	503: 'The receiver of these events is not configured correctly',
} as const;

const JSON_EXPECTED = 'Partner Logistics events are JSON sent with Content-Type: application/json.';
const SCHEME_MATCHES = 'Check that Signature Scheme and its options match what the sender sends.';

/** Each refusal's status (401: signature; 400: a verified body not JSON) and words for the log. */
export const REFUSALS = {
	'no-secret': {
		status: 401,
		what: 'no signing secret yields an HMAC key',
		check: 'Check the Webhook Signing Secret in the Partner Logistics API credential.',
	},
	'missing-header': { status: 401, what: 'a signature header is missing', check: SCHEME_MATCHES },
	'malformed-header': {
		status: 401,
		what: 'a signature or timestamp header is malformed',
		check: SCHEME_MATCHES,
	},
	'stale-timestamp': {
		status: 401,
		what: 'the signed timestamp is older than the timestamp tolerance',
		check:
			'A replay of an old delivery looks like this. If the sender is genuine, check its clock or raise Timestamp Tolerance.',
	},
	'future-timestamp': {
		status: 401,
		what: 'the signed timestamp is further ahead than the timestamp tolerance',
		check: "Check the sender's clock, the Timestamp Unit option, or raise Timestamp Tolerance.",
	},
	'signature-mismatch': {
		status: 401,
		what: 'the signature does not match the signing secret',
		check:
			'Check that the credential holds the secret the partner portal shows for this webhook (and Previous Signing Secret during a rotation), and that Signature Scheme matches.',
	},
	'not-json-content-type': {
		status: 400,
		what: 'the verified body was not sent as JSON',
		check: JSON_EXPECTED,
	},
	'invalid-json': {
		status: 400,
		what: 'the verified body is not valid JSON',
		check: JSON_EXPECTED,
	},
} as const;

export type RefusalReason = keyof typeof REFUSALS;
/** Why a signature check refused a delivery: for the log and the editor, never for the sender. */
export type RejectionReason = Exclude<RefusalReason, 'not-json-content-type' | 'invalid-json'>;
