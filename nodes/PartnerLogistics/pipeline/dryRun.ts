import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clip } from '../shared/message';
import type { OperationSpec } from './operation';
import type { ApiSession, ItemRequest } from './request';

// Options › Dry Run: a preview item (run.ts decides when) holds a stand-in for each id its answer
// would (OperationSpec.answers), so the next node in Dry Run previews its own request with it; a
// node with Dry Run off refuses a preview, or an item holding a stand-in, before anything is sent.

/** How every preview's note begins; a preview item is recognised by it. */
const NOTE_START = 'Nothing was sent: Dry Run is on in node ';
/** A stand-in, shaped like no API id, naming its node; found in JSON text too (quotes escaped). */
const STAND_IN = /\[dry run: (\w+) of item \d+ from \\?"(.*?)\\?"\]/;
/** A node's name in quotes, its own double quotes made single so STAND_IN and the note read it. */
const quoted = (node: string) => `"${node.replace(/"/g, "'")}"`;

/** The stand-in for `id` of an item of `node`: `[dry run: quoteId of item 1 from "Quote"]`. */
export function standIn(id: string, itemIndex: number, node: string): string {
	return `[dry run: ${id} of item ${itemIndex + 1} from ${quoted(node)}]`;
}

type Sent = { url: string; qs?: IDataObject; body?: IDataObject };

/** The first stand-in in a request's URL, query and body: which id, made by which node. */
export function standInOf({ url, qs, body }: Sent): { id: string; node: string } | undefined {
	let path = url;
	try {
		path = decodeURIComponent(url);
	} catch {
		// Not URL-encoded text: read as it is.
	}
	const found = STAND_IN.exec(`${path} ${JSON.stringify(qs ?? {})} ${JSON.stringify(body ?? {})}`);
	return found ? { id: found[1], node: found[2] } : undefined;
}

/** The node whose Dry Run made `item` a preview, or undefined when it is not one. */
export function previewSource(item: IDataObject): string | undefined {
	const note = item.dryRun;
	if (typeof note !== 'string' || !note.startsWith(NOTE_START)) return undefined;
	return /^"([^"]*)"/.exec(note.slice(NOTE_START.length))?.[1];
}

/** What a preview says besides the request: its node, the input item, a key given as an option. */
type Facts = { node: string; item: IDataObject; given: boolean };

/** A dry run's item: the request as it would leave n8n, a note, a stand-in for each answer id. */
export async function previewItem(
	{ api, spec }: { api: ApiSession; spec: OperationSpec },
	request: ItemRequest,
	facts: Facts,
): Promise<IDataObject> {
	const { method, url, headers, body } = await api.preview(request);
	const { idempotencyKey, itemIndex } = request;
	const answers = spec.answers ?? [];
	const stood = Object.fromEntries(answers.map((id) => [id, standIn(id, itemIndex, facts.node)]));
	return {
		request: `${method} ${url}`,
		...(body && { body }),
		...(idempotencyKey !== undefined && { idempotencyKey }),
		dryRun: previewNote(request, answers, facts),
		headers,
		...(spec.output ? spec.output(stood, request.body ?? {}) : stood),
	};
}

/** The preview's note: one column of the Table view, in the words the editor uses. */
export function previewNote(
	request: Sent & Pick<ItemRequest, 'idempotencyKey' | 'referent'>,
	answers: string[],
	{ node, item, given }: Facts,
): string {
	const parts = [`${NOTE_START}${quoted(node)}.`];
	const sends = standInOf(request);
	const { idempotencyKey, referent } = request;
	const kind = referent !== undefined ? 'referent' : given ? 'given' : 'creation';
	if (sends) {
		const keyed = kind === 'referent' && idempotencyKey !== undefined ? ' and keys by it' : '';
		parts.push(
			`${sends.id} is a stand-in from "${sends.node}": a real run sends the real ${sends.id}${keyed}.`,
		);
	}
	const ofStandIns = kind !== 'given' && (sends || previewSource(item) !== undefined);
	if (idempotencyKey !== undefined && ofStandIns) {
		parts.push('Its Idempotency-Key is made of stand-ins: a real run sends another.');
	} else if (idempotencyKey !== undefined) {
		const madeOf = {
			given: ' (Options › Idempotency Key)',
			referent: `, made of the API, this action and ${referent || 'what it acts on'}: the same in every execution`,
			creation: ', made of these input items and this item, and so does its Retry',
		};
		parts.push(`A real run sends this Idempotency-Key${madeOf[kind]}.`);
	}
	if (answers.length) {
		parts.push(
			`${answers.join(', ')}: stand-in for what the API would answer, for the next nodes in Dry Run; with Dry Run off they refuse it.`,
		);
	}
	return parts.join(' ');
}

/** Refuses, with Dry Run off, an item that is a preview or a request that sends a stand-in. */
export function refuseLeftover(
	node: INode,
	itemIndex: number,
	{ item, request }: { item?: IDataObject; request?: Sent },
): void {
	const fromPreview = item ? previewSource(item) : undefined;
	const sends = request ? standInOf(request) : undefined;
	if (fromPreview === undefined && !sends) return;
	const source = sends?.node ?? fromPreview ?? '';
	const what = sends ? `sends ${sends.id} as a Dry Run stand-in` : 'is a Dry Run preview';
	const start = `Item ${itemIndex + 1} ${what} from "`;
	const end = '": turn off Dry Run there';
	throw new NodeOperationError(node, `${start}${clip(source, start + end)}${end}`, {
		itemIndex,
		description: `Node "${source}" ran with Options › Dry Run on: it only previewed its request, so ${sends ? `${sends.id} stands in for an answer the API never gave` : 'this item is a request it would send, not an API answer'}. Nothing was sent for this item. Turn off Dry Run in "${source}" (and unpin its data, if pinned) and run again; or turn on Dry Run in this node to preview the whole chain.`,
	});
}
