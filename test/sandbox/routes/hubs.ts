import { HUBS } from '../fixtures';
import type { RouteDef } from '../router';

export const hubRoutes: RouteDef[] = [
	{
		method: 'GET',
		path: '/partner-api/hubs',
		capability: 'partner:read',
		handle: () => ({ status: 200, body: HUBS.filter((h) => h.active) }),
	},
];
