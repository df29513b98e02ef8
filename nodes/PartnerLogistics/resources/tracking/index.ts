import type { ResourceSpec } from '../../pipeline/operation';
import { trackingGetTrip } from './getTrip';
import { trackingGetTruck } from './getTruck';
import { trackingGetTrucks } from './getAssignedTrucks';

export const trackingResource: ResourceSpec = {
	displayName: 'Tracking',
	value: 'tracking',
	description: 'Where HAUL trucks and trips are',
	defaultOperation: 'getTrucks',
	operations: [trackingGetTrip, trackingGetTruck, trackingGetTrucks],
};
