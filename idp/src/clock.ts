/** Milliseconds since the epoch; injectable so tests move time instead of sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function epochSeconds(clock: Clock): number {
  return Math.floor(clock() / 1000);
}
