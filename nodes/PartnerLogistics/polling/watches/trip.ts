import { trackingGetTrip } from '../../resources/tracking/getTrip';
import { byListedIds, type WatchSpec } from '../watch';

export const tripWatch: WatchSpec = {
	name: 'New or Changed Trip',
	value: 'trip',
	description: 'Looks up each haulage trip you list (Tracking › Get Trip), on every poll',
	record: 'trip',
	records: 'trips',
	operation: trackingGetTrip,
	identity: byListedIds(
		'tripIds',
		'Trip IDs',
		'trip IDs',
		'trip_123',
		"A trip's ID comes with its truck assignment.",
	),
};
