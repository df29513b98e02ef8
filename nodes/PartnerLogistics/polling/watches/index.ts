import type { WatchSpec } from '../watch';
import { haulageQuotationWatch } from './haulageQuotation';
import { paymentWatch } from './payment';
import { quoteRequestWatch } from './quoteRequest';
import { supportCaseWatch } from './supportCase';
import { tripWatch } from './trip';
import { truckWatch } from './truck';
import { truckTrackingWatch } from './truckTracking';

/** Every watch of the polling trigger; its fields show in this order. Adding one is one line. */
export const WATCHES: WatchSpec[] = [
	supportCaseWatch,
	truckWatch,
	paymentWatch,
	quoteRequestWatch,
	haulageQuotationWatch,
	tripWatch,
	truckTrackingWatch,
];
