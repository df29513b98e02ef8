import { paymentGet } from '../../resources/payment/get';
import { byListedIds, type WatchSpec } from '../watch';

export const paymentWatch: WatchSpec = {
	name: 'New or Changed Payment',
	value: 'payment',
	description: 'Looks up the status of each payment reference you list, on every poll',
	record: 'payment',
	records: 'payment references',
	operation: paymentGet,
	identity: byListedIds(
		'references',
		'Payment References',
		'payment references',
		'pay_123, pay_456',
		'Each payment is identified by the reference you list, the one its lookup takes.',
	),
};
