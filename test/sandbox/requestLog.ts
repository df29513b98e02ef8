// The partner request log: what arrived and what status went back (0 = dropped on purpose).
import { matchesPath } from './paths';
import type { RequestFilter, RequestLogEntry } from './types';

export class RequestLog {
	private entries: RequestLogEntry[] = [];
	private lastSeq = 0;

	nextSeq(): number {
		return ++this.lastSeq;
	}

	add(entry: RequestLogEntry): void {
		this.entries.push(entry);
	}

	/** In arrival order: entries are added when answered, which may differ under delays. */
	list(filter: RequestFilter = {}): RequestLogEntry[] {
		return this.entries
			.filter(
				(e) =>
					(!filter.method || e.method === filter.method.toUpperCase()) &&
					matchesPath(filter.path, e.path),
			)
			.sort((a, b) => a.seq - b.seq)
			.map((e) => structuredClone(e));
	}

	clear(): void {
		this.entries = [];
	}
}
