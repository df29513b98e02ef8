// Valid bodies for each accepted route form of the direct quote (and booking) endpoint.

export const HOME_PICKUP = {
	pickupAddress: '14 Allen Avenue, Ikeja',
	pickupLatitude: 6.6018,
	pickupLongitude: 3.3515,
};

export const HOME_DROPOFF = {
	dropoffAddress: '5 Bourdillon Road, Ikoyi',
	dropoffLatitude: 6.4541,
	dropoffLongitude: 3.4347,
};

export const STOPS = [
	{ type: 'PICKUP', address: '14 Allen Avenue, Ikeja', latitude: 6.6018, longitude: 3.3515 },
	{
		type: 'DROPOFF',
		address: '2 Adeola Odeku, Victoria Island',
		latitude: 6.4281,
		longitude: 3.4219,
	},
	{
		type: 'DROPOFF',
		address: '5 Bourdillon Road, Ikoyi',
		latitude: 6.4541,
		longitude: 3.4347,
		phone: '+234 801 234 5678',
	},
];

/** [form name, body, routeForm the sandbox reports]; hubA/hubB are active hub ids. */
export function routeForms(
	hubA: string,
	hubB: string,
): Array<[string, Record<string, unknown>, string]> {
	const hubDropoff = { pickupMethod: 'HUB_DROPOFF', pickupHubId: hubA };
	const hubPickup = { dropoffMethod: 'HUB_PICKUP', dropoffHubId: hubB };
	const express = { serviceType: 'EXPRESS', packageWeightKg: 2.5 };
	return [
		['home to home, CLICK by default', { ...HOME_PICKUP, ...HOME_DROPOFF }, 'HOME_TO_HOME'],
		[
			'home to home, GO_LIGHT',
			{ serviceType: 'GO_LIGHT', ...HOME_PICKUP, ...HOME_DROPOFF },
			'HOME_TO_HOME',
		],
		['home to home, EXPRESS', { ...express, ...HOME_PICKUP, ...HOME_DROPOFF }, 'HOME_TO_HOME'],
		[
			'multi-stop CLICK',
			{ serviceType: 'CLICK', orderMode: 'MULTI_STOP', stops: STOPS },
			'MULTI_STOP',
		],
		[
			'GO_LIGHT home pickup to hub pickup',
			{ serviceType: 'GO_LIGHT', ...HOME_PICKUP, ...hubPickup },
			'HOME_TO_HUB',
		],
		[
			'GO_LIGHT hub dropoff to home delivery',
			{ serviceType: 'GO_LIGHT', ...hubDropoff, ...HOME_DROPOFF },
			'HUB_TO_HOME',
		],
		[
			'GO_LIGHT hub dropoff to hub pickup',
			{ serviceType: 'GO_LIGHT', ...hubDropoff, ...hubPickup },
			'HUB_TO_HUB',
		],
		[
			'EXPRESS home pickup to hub pickup',
			{ ...express, ...HOME_PICKUP, ...hubPickup },
			'HOME_TO_HUB',
		],
		[
			'EXPRESS hub dropoff to home delivery',
			{ ...express, ...hubDropoff, ...HOME_DROPOFF },
			'HUB_TO_HOME',
		],
		[
			'EXPRESS hub dropoff to hub pickup',
			{ ...express, ...hubDropoff, ...hubPickup },
			'HUB_TO_HUB',
		],
	];
}
