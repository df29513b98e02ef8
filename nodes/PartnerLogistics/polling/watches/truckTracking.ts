import { trackingGetTruck } from '../../resources/tracking/getTruck';
import { byListedIds, type WatchSpec } from '../watch';

export const truckTrackingWatch: WatchSpec = {
	name: 'New or Changed Truck Tracking',
	value: 'truckTracking',
	description:
		'Looks up the tracking of each truck assignment you list (Tracking › Get Truck), on every poll',
	record: 'truck assignment',
	records: 'truck assignments',
	operation: trackingGetTruck,
	identity: byListedIds(
		'assignmentIds',
		'Assignment IDs',
		'truck assignment IDs',
		'asg_123',
		'A truck that reports its position often changes at every poll: set Changes That Count to the fields you follow, e.g. status.',
	),
};
