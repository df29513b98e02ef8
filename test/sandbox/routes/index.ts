import type { RouteDef } from '../router';
import { directBookingRoutes } from './directBooking';
import { goBulkRoutes } from './goBulk';
import { haulageRoutes } from './haulage';
import { hubRoutes } from './hubs';
import { paymentRoutes } from './payments';
import { supportCaseRoutes } from './supportCases';

/** Every partner endpoint, paths relative to the base /api/v1. */
export const PARTNER_ROUTES: readonly RouteDef[] = [
	...hubRoutes,
	...directBookingRoutes,
	...paymentRoutes,
	...goBulkRoutes,
	...haulageRoutes,
	...supportCaseRoutes,
];
