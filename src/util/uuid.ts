/** The canonical 8-4-4-4-12 hex form every id of both services has (seed 000 "Errors" 4), in either case. */
const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A whole value that is a UUID. */
export const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

/** Every path segment that is a UUID (global: for replace). */
export const UUID_SEGMENTS = new RegExp(`/${UUID_PATTERN}(?=/|$)`, 'gi');
