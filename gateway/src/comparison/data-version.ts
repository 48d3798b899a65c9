/**
 * The response header in which a backend may name the state of its data (the stand-in sends its process id
 * and journal position; OS2mo sends nothing). Equal values mean equal data, so answers derived from it can
 * be kept. The gateway only compares it, never parses it.
 */
export const dataVersionHeader = 'X-Data-Version';
