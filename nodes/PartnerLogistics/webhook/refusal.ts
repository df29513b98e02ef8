import type { ParsedBody } from './event';
import type { RejectionReason } from './signature';

export type RefusalReason = RejectionReason | Extract<ParsedBody, { ok: false }>['reason'];

/**
 * What each refusal means and what to check, for the n8n log and the editor. The sender gets
 * none of it: a forger must not learn which check failed.
 */
export const REFUSALS: Record<RefusalReason, { what: string; check: string }> = {
	'no-secret': {
		what: 'no signing secret yields a key',
		check: 'Check the Webhook Signing Secret in the Partner Logistics API credential.',
	},
	'missing-header': {
		what: 'a signature header is missing',
		check:
			'Check that Signature Scheme (and its header name option) matches what the sender sends.',
	},
	'malformed-header': {
		what: 'a signature or timestamp header is malformed',
		check: 'Check that Signature Scheme and its options match what the sender sends.',
	},
	'stale-timestamp': {
		what: 'the signed timestamp is older than the timestamp tolerance',
		check:
			'A replay of an old delivery looks like this. If the sender is genuine, check its clock or raise Timestamp Tolerance.',
	},
	'future-timestamp': {
		what: 'the signed timestamp is further ahead than the timestamp tolerance',
		check: "Check the sender's clock, the Timestamp Unit option, or raise Timestamp Tolerance.",
	},
	'signature-mismatch': {
		what: 'the signature does not match the signing secret',
		check:
			'Check that the credential holds the secret the partner portal shows for this webhook (and Previous Signing Secret during a rotation), and that Signature Scheme matches.',
	},
	'not-json-content-type': {
		what: 'the verified body was not sent as JSON',
		check: 'Partner Logistics events are JSON sent with Content-Type: application/json.',
	},
	'invalid-json': {
		what: 'the verified body is not valid JSON',
		check: 'Partner Logistics events are JSON sent with Content-Type: application/json.',
	},
};
