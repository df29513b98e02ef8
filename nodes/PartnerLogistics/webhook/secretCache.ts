/**
 * Values read from n8n's credential store, kept per process so a delivery does not pay a database
 * read and a decryption each time. The caller says how old a value it accepts.
 */
export class SecretCache<T> {
	private readonly entries = new Map<string, { value: T; readAt: number }>();

	constructor(private readonly maxEntries = 1000) {}

	/** The value read at most `maxAgeMs` ago, if any. */
	get(key: string, now: number, maxAgeMs: number): T | undefined {
		const entry = this.entries.get(key);
		return entry !== undefined && now - entry.readAt < maxAgeMs ? entry.value : undefined;
	}

	set(key: string, value: T, now: number): void {
		this.entries.delete(key);
		if (this.entries.size >= this.maxEntries) {
			this.entries.delete(this.entries.keys().next().value as string);
		}
		this.entries.set(key, { value, readAt: now });
	}
}
