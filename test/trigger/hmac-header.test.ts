import { deriveHmacKeys } from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { verifyHmacHeader } from '../../nodes/PartnerLogistics/webhook/signature';
import { hmacOf } from './signers';

const body = Buffer.from(JSON.stringify({ id: 'evt_9', type: 'support_case.updated' }));
const current = 'current-hmac-secret';
const previous = 'previous-hmac-secret';

type Algorithm = 'sha256' | 'sha512';
type Encoding = 'hex' | 'base64';

function verify(
	header: string | undefined,
	options: {
		algorithm?: Algorithm;
		encoding?: Encoding;
		prefix?: string;
		rawBody?: Buffer;
		secrets?: string[];
	} = {},
) {
	return verifyHmacHeader({
		rawBody: options.rawBody ?? body,
		header,
		hmacKeys: deriveHmacKeys(options.secrets ?? [current], 'text'),
		algorithm: options.algorithm ?? 'sha256',
		encoding: options.encoding ?? 'hex',
		prefix: options.prefix,
	});
}

describe('HMAC of the body in a header, signed with node:crypto', () => {
	describe.each([
		['sha256', 'hex', ''],
		['sha256', 'base64', ''],
		['sha512', 'hex', 'sha512='],
		['sha512', 'base64', 'v1='],
		['sha256', 'hex', 'sha256='],
	] as Array<[Algorithm, Encoding, string]>)(
		'%s, %s, prefix "%s"',
		(algorithm, encoding, prefix) => {
			const options = { algorithm, encoding, prefix };
			const sign = (secret: string, payload = body) =>
				`${prefix}${hmacOf(secret, payload, algorithm, encoding)}`;

			it('accepts a valid signature', () => {
				expect(verify(sign(current), options)).toEqual({ ok: true, secretIndex: 0 });
			});

			it('accepts two signatures in one header if either matches', () => {
				expect(verify(`${sign(previous)}, ${sign(current)}`, options)).toMatchObject({ ok: true });
				expect(verify(`${sign(previous)} ${sign(current)}`, options)).toMatchObject({ ok: true });
			});

			it('accepts the previous secret during rotation', () => {
				expect(verify(sign(previous), { ...options, secrets: [current, previous] })).toEqual({
					ok: true,
					secretIndex: 1,
				});
			});

			it('refuses a wrong secret and a body altered by one byte', () => {
				expect(verify(sign('not-the-secret'), options)).toEqual({
					ok: false,
					reason: 'signature-mismatch',
				});
				const altered = Buffer.from(body);
				altered[altered.length - 2] ^= 0x20;
				expect(verify(sign(current), { ...options, rawBody: altered })).toEqual({
					ok: false,
					reason: 'signature-mismatch',
				});
			});

			it('refuses a missing or malformed header', () => {
				expect(verify(undefined, options)).toEqual({ ok: false, reason: 'missing-header' });
				expect(verify(`${prefix}***`, options)).toEqual({ ok: false, reason: 'malformed-header' });
			});
		},
	);

	it('matches the prefix without regard to case', () => {
		const header = `SHA256=${hmacOf(current, body)}`;
		expect(verify(header, { prefix: 'sha256=' })).toMatchObject({ ok: true });
	});

	it('refuses a signature without the configured prefix', () => {
		expect(verify(hmacOf(current, body), { prefix: 'sha256=' })).toEqual({
			ok: false,
			reason: 'malformed-header',
		});
	});

	it('refuses a signature of the other algorithm', () => {
		expect(verify(hmacOf(current, body, 'sha512'), { algorithm: 'sha256' })).toEqual({
			ok: false,
			reason: 'signature-mismatch',
		});
	});

	it('accepts upper-case hex', () => {
		expect(verify(hmacOf(current, body).toUpperCase())).toMatchObject({ ok: true });
	});

	it('never passes without a secret', () => {
		expect(verify(hmacOf('', body), { secrets: [] })).toEqual({ ok: false, reason: 'no-secret' });
	});
});
