import { startSandbox, type Sandbox } from '../sandbox';
import { listSearch } from '../harness';
import { credentialsFor } from './helpers';

// The hub pickers of route forms: a searchable list of active hubs, or the API's error.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

test('lists the active hubs, labelled and searchable', async () => {
	const all = await listSearch('searchHubs', { credentials: credentialsFor(sandbox) });
	expect(all.results.map((hub) => hub.value)).toEqual(sandbox.hubs.active);
	expect(all.results[0].name).toMatch(new RegExp(`\\(${sandbox.hubs.active[0]}\\)$`));

	const some = await listSearch('searchHubs', {
		credentials: credentialsFor(sandbox),
		filter: sandbox.hubs.active[1].toUpperCase(),
	});
	expect(some.results.map((hub) => hub.value)).toEqual([sandbox.hubs.active[1]]);
});

test('shows why hubs could not be loaded instead of an empty list', async () => {
	await expect(
		listSearch('searchHubs', { credentials: credentialsFor(sandbox, 'wrong-key') }),
	).rejects.toThrow(/^Could not load hubs: The API key was refused \(401\)/);
	await expect(
		listSearch('searchHubs', {
			credentials: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: sandbox.keys.full },
		}),
	).rejects.toThrow(
		/^Could not load hubs: Could not connect to the API\. Check the credential's Base URL/,
	);
});

test('follows no redirect with the key, and refuses a page that is not JSON', async () => {
	const credentials = credentialsFor(sandbox);
	sandbox.admin.setFaults({ failNext: [{ kind: 'redirect', path: '/partner-api/hubs' }] });
	await expect(listSearch('searchHubs', { credentials })).rejects.toThrow(
		/^Could not load hubs: The API answered with a redirect \(302\)/,
	);
	expect(sandbox.redirectTarget.requests()).toEqual([]);
	sandbox.admin.setFaults({ failNext: [{ kind: 'html200', path: '/partner-api/hubs' }] });
	await expect(listSearch('searchHubs', { credentials })).rejects.toThrow(
		/^Could not load hubs: The API answered 200 with a non-JSON body where the list of hubs was expected/,
	);
	sandbox.admin.setFaults({});
});
