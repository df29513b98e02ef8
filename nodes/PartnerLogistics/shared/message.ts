/** An error's message is one line: what happened and what to do; the rest is its description. */
export const MAX_MESSAGE_CHARS = 120;

/** `text` cut with "…" to `room` characters (by default what a message leaves after `before`). */
export function clip(text: string, before: string | number = ''): string {
	const room = typeof before === 'number' ? before : MAX_MESSAGE_CHARS - before.length;
	return text.length <= room ? text : `${text.slice(0, room - 1).trimEnd()}…`;
}

/** The message cut to MAX_MESSAGE_CHARS at a sentence's end; the rest opens the description. */
export function fitMessage(message: string, description = '') {
	if (message.length <= MAX_MESSAGE_CHARS) return { message, description };
	const end = message.lastIndexOf('. ', MAX_MESSAGE_CHARS - 1);
	const [kept, rest] =
		end > 0 ? [message.slice(0, end + 1), message.slice(end + 2)] : [clip(message), message];
	return { message: kept, description: description ? `${rest} ${description}` : rest };
}
