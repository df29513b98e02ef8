// Support cases: capability-gated, reporter-visible timeline only, OPEN <-> CLOSED.
import { ApiError, conflict, invalid, notFound } from '../errors';
import type { RouteContext, RouteDef } from '../router';
import type { OrgData, SupportCaseRecord, TimelineEntry } from '../store';
import { supportCaseSummaryView, supportCaseView, timelineEntryView } from '../views';
import { optionalObject, optionalString, requiredString } from '../validate/fields';

/** Appears in every case's hidden parts; tests assert it never reaches a partner response. */
export const INTERNAL_NOTE_MARKER = 'SBX-INTERNAL-ONLY';

const RELATED_RESOURCES: Record<string, (org: OrgData, id: string) => boolean> = {
	BOOKING: (org, id) => org.bookings.has(id),
	QUOTE_REQUEST: (org, id) => org.quoteRequests.has(id),
	HAULAGE_QUOTATION: (org, id) => org.haulageQuotations.has(id),
	PAYMENT: (org, id) => org.payments.has(id),
};

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function readRelated(
	ctx: RouteContext,
): Pick<SupportCaseRecord, 'relatedResourceType' | 'relatedResourceId'> {
	const type = optionalString(ctx.body.relatedResourceType, 'relatedResourceType');
	const id = optionalString(ctx.body.relatedResourceId, 'relatedResourceId');
	if (type === undefined && id === undefined) return {};
	if (type === undefined) {
		throw invalid(
			'relatedResourceType',
			'relatedResourceType is required with relatedResourceId (e.g. BOOKING).',
		);
	}
	if (id === undefined) {
		throw invalid('relatedResourceId', 'relatedResourceId is required with relatedResourceType.');
	}
	const owns = RELATED_RESOURCES[type];
	if (!owns) {
		throw invalid(
			'relatedResourceType',
			`relatedResourceType must be one of ${Object.keys(RELATED_RESOURCES).join(', ')}; got ${JSON.stringify(type)}.`,
		);
	}
	if (!owns(ctx.org, id)) {
		throw new ApiError(
			404,
			'RELATED_RESOURCE_NOT_FOUND',
			`${type} ${id} was not found in this organization; a case can only refer to your own resources.`,
			{ field: 'relatedResourceId' },
		);
	}
	return { relatedResourceType: type, relatedResourceId: id };
}

function findCase(ctx: RouteContext): SupportCaseRecord {
	const found = ctx.org.supportCases.get(ctx.params.caseId);
	if (!found) throw notFound('Support case', ctx.params.caseId);
	return found;
}

function addEntry(
	ctx: RouteContext,
	c: SupportCaseRecord,
	entry: Omit<TimelineEntry, 'entryId' | 'at'>,
): TimelineEntry {
	const full = { entryId: ctx.core.store.nextId('tl'), at: ctx.now, ...entry };
	c.timeline.push(full);
	c.updatedAt = ctx.now;
	return full;
}

function readLimit(raw: string | undefined): number {
	if (raw === undefined) return DEFAULT_LIMIT;
	const limit = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(limit >= 1 && limit <= MAX_LIMIT)) {
		throw invalid(
			'limit',
			`limit must be a whole number from 1 to ${MAX_LIMIT}; got ${JSON.stringify(raw)}.`,
		);
	}
	return limit;
}

/** Newest first; the cursor names the last case of the previous page. */
function listCases(ctx: RouteContext) {
	const limit = readLimit(ctx.query.limit);
	const status = ctx.query.status?.toUpperCase();
	let all = [...ctx.org.supportCases.values()].reverse();
	if (ctx.core.settings.listShape === 'cursor' && ctx.query.cursor !== undefined) {
		const after = Buffer.from(ctx.query.cursor, 'base64url').toString();
		const index = all.findIndex((c) => c.caseId === after);
		if (index < 0)
			throw invalid('cursor', 'cursor is not valid; use nextCursor from the previous page.');
		all = all.slice(index + 1);
	}
	const matching = all.filter((c) => !status || c.status === status);
	const page = matching.slice(0, limit);
	const items = page.map(supportCaseSummaryView);
	if (ctx.core.settings.listShape === 'array') return items;
	const more = matching.length > limit;
	return {
		items,
		nextCursor: more ? Buffer.from(page[page.length - 1].caseId).toString('base64url') : null,
	};
}

export const supportCaseRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: '/partner-api/support-cases',
		capability: 'support:create',
		handle(ctx) {
			const b = ctx.body;
			const c: SupportCaseRecord = {
				caseId: ctx.core.store.nextId('case'),
				title: requiredString(b.title, 'title'),
				summary: optionalString(b.summary, 'summary'),
				// Any string: the spec shows one value of each and the API may add more.
				category: optionalString(b.category, 'category'),
				priority: optionalString(b.priority, 'priority'),
				metadata: optionalObject(b.metadata, 'metadata'),
				...readRelated(ctx),
				status: 'OPEN',
				timeline: [],
				staffMetadata: { triageQueue: 'tier-1', riskScore: 0.12, note: INTERNAL_NOTE_MARKER },
				createdAt: ctx.now,
				updatedAt: ctx.now,
			};
			addEntry(ctx, c, { type: 'CREATED', author: 'PARTNER', visibility: 'REPORTER' });
			addEntry(ctx, c, {
				type: 'COMMENT',
				author: 'SUPPORT',
				visibility: 'REPORTER',
				message: 'Thank you, we received your case. A support agent will reply here.',
			});
			addEntry(ctx, c, {
				type: 'INTERNAL_NOTE',
				author: 'STAFF',
				visibility: 'INTERNAL',
				message: `${INTERNAL_NOTE_MARKER}: check the ledger for related refunds before replying.`,
			});
			ctx.org.supportCases.set(c.caseId, c);
			return { status: 201, body: supportCaseView(c) };
		},
	},
	{
		method: 'GET',
		path: '/partner-api/support-cases',
		capability: 'support:read',
		handle: (ctx) => ({ status: 200, body: listCases(ctx) }),
	},
	{
		method: 'GET',
		path: '/partner-api/support-cases/:caseId',
		capability: 'support:read',
		handle: (ctx) => ({ status: 200, body: supportCaseView(findCase(ctx)) }),
	},
	{
		method: 'POST',
		path: '/partner-api/support-cases/:caseId/comments',
		capability: 'support:create',
		handle(ctx) {
			const c = findCase(ctx);
			const message = requiredString(ctx.body.message, 'message');
			if (c.status === 'CLOSED') {
				throw conflict(
					'CASE_CLOSED',
					`Support case ${c.caseId} is closed; reopen it before commenting.`,
				);
			}
			const entry = addEntry(ctx, c, {
				type: 'COMMENT',
				author: 'PARTNER',
				visibility: 'REPORTER',
				message,
			});
			return {
				status: 201,
				body: { caseId: c.caseId, commentId: entry.entryId, ...timelineEntryView(entry) },
			};
		},
	},
	{
		method: 'POST',
		path: '/partner-api/support-cases/:caseId/close',
		capability: 'support:create',
		handle(ctx) {
			const c = findCase(ctx);
			const note = optionalString(ctx.body.note, 'note');
			if (c.status === 'CLOSED') {
				throw conflict('CASE_ALREADY_CLOSED', `Support case ${c.caseId} is already closed.`);
			}
			c.status = 'CLOSED';
			addEntry(ctx, c, {
				type: 'CLOSED',
				author: 'PARTNER',
				visibility: 'REPORTER',
				message: note,
			});
			return { status: 200, body: supportCaseView(c) };
		},
	},
	{
		method: 'POST',
		path: '/partner-api/support-cases/:caseId/reopen',
		capability: 'support:create',
		handle(ctx) {
			const c = findCase(ctx);
			const reason = optionalString(ctx.body.reason, 'reason');
			if (c.status !== 'CLOSED') {
				throw conflict(
					'CASE_NOT_CLOSED',
					`Support case ${c.caseId} is ${c.status}; only a closed case can be reopened.`,
				);
			}
			c.status = 'OPEN';
			addEntry(ctx, c, {
				type: 'REOPENED',
				author: 'PARTNER',
				visibility: 'REPORTER',
				message: reason,
			});
			return { status: 200, body: supportCaseView(c) };
		},
	},
];
