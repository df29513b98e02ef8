// Fixed world of the sandbox: hubs, organizations, their keys, capabilities and saved cards.
import { randomBytes } from 'node:crypto';

import type { OrgId, SandboxKeys } from './types';

export interface Hub {
	id: string;
	name: string;
	city: string;
	address: string;
	latitude: number;
	longitude: number;
	openingHours: string;
	active: boolean;
}

export const HUBS: readonly Hub[] = [
	{
		id: 'hub_lag_ikeja',
		name: 'Ikeja Hub',
		city: 'Lagos',
		address: '12 Obafemi Awolowo Way, Ikeja',
		latitude: 6.6018,
		longitude: 3.3515,
		openingHours: 'Mon-Sat 08:00-20:00',
		active: true,
	},
	{
		id: 'hub_lag_lekki',
		name: 'Lekki Phase 1 Hub',
		city: 'Lagos',
		address: '4 Admiralty Way, Lekki Phase 1',
		latitude: 6.4474,
		longitude: 3.4723,
		openingHours: 'Mon-Sat 08:00-20:00',
		active: true,
	},
	{
		id: 'hub_lag_yaba',
		name: 'Yaba Hub',
		city: 'Lagos',
		address: '27 Herbert Macaulay Way, Yaba',
		latitude: 6.5095,
		longitude: 3.3711,
		openingHours: 'Mon-Fri 09:00-18:00',
		active: true,
	},
	{
		id: 'hub_abv_wuse',
		name: 'Wuse II Hub',
		city: 'Abuja',
		address: '8 Aminu Kano Crescent, Wuse II',
		latitude: 9.0765,
		longitude: 7.4686,
		openingHours: 'Mon-Sat 08:00-19:00',
		active: true,
	},
	{
		id: 'hub_lag_apapa',
		name: 'Apapa Hub (closed for refurbishment)',
		city: 'Lagos',
		address: '3 Wharf Road, Apapa',
		latitude: 6.4413,
		longitude: 3.3637,
		openingHours: 'closed',
		active: false,
	},
];

export const ACTIVE_HUB_IDS = HUBS.filter((h) => h.active).map((h) => h.id);
export const INACTIVE_HUB_IDS = HUBS.filter((h) => !h.active).map((h) => h.id);

export function activeHub(id: string): Hub | undefined {
	return HUBS.find((h) => h.id === id && h.active);
}

/** Only support:* appear in the spec; partner:read / partner:write are the sandbox's names. */
export type Capability = 'partner:read' | 'partner:write' | 'support:read' | 'support:create';

export type KeyName = keyof SandboxKeys;

export const KEY_PROFILES: Record<KeyName, { org: OrgId; capabilities: readonly Capability[] }> = {
	full: {
		org: 'A',
		capabilities: ['partner:read', 'partner:write', 'support:read', 'support:create'],
	},
	noSupport: { org: 'A', capabilities: ['partner:read', 'partner:write'] },
	readOnly: { org: 'A', capabilities: ['partner:read', 'support:read'] },
	otherOrg: {
		org: 'B',
		capabilities: ['partner:read', 'partner:write', 'support:read', 'support:create'],
	},
};

const KEY_PREFIX: Record<KeyName, string> = {
	full: 'sbx_a_full_',
	noSupport: 'sbx_a_nosupport_',
	readOnly: 'sbx_a_readonly_',
	otherOrg: 'sbx_b_full_',
};

export function makeKeys(fixed: Partial<SandboxKeys> = {}): SandboxKeys {
	const pick = (name: KeyName) => fixed[name] ?? KEY_PREFIX[name] + randomBytes(12).toString('hex');
	const keys = {
		full: pick('full'),
		noSupport: pick('noSupport'),
		readOnly: pick('readOnly'),
		otherOrg: pick('otherOrg'),
	};
	if (new Set(Object.values(keys)).size !== 4) throw new Error('sandbox keys must be distinct');
	return keys;
}

export interface SavedCard {
	paymentMethodId: string;
	brand: string;
	last4: string;
	/** Enabled in the dashboard for public API charges. */
	apiChargesEnabled: boolean;
}

export const SAVED_CARDS: Record<OrgId, readonly SavedCard[]> = {
	A: [
		{ paymentMethodId: 'pm_card_a_api', brand: 'VISA', last4: '4242', apiChargesEnabled: true },
		{
			paymentMethodId: 'pm_card_a_dashboard_only',
			brand: 'MASTERCARD',
			last4: '4444',
			apiChargesEnabled: false,
		},
	],
	B: [{ paymentMethodId: 'pm_card_b_api', brand: 'VISA', last4: '1881', apiChargesEnabled: true }],
};

/** Partner credit per organization after start and after reset. */
export const DEFAULT_CREDIT: Record<OrgId, boolean> = { A: true, B: false };

export const CURRENCY = 'NGN';
