/** An error's message is one line: what happened and what to do; the rest is its description. */
export const MAX_MESSAGE_CHARS = 120;

/** `text` cut with "…" to `room` characters (by default what a message leaves after `before`). */
export function clip(text: string, before: string | number = ''): string {
	const room = typeof before === 'number' ? before : MAX_MESSAGE_CHARS - before.length;
	return text.length <= room ? text : `${text.slice(0, room - 1).trimEnd()}…`;
}
