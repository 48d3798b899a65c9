import type { Mutation, StoredEntity } from './store/index.js';

/**
 * When each object was last written, kept on the stored object itself (`registered`, an ISO date-time) so it
 * is as durable as the object: OS2mo's LoRa keeps a registration time per write, and 2.4.0's reading API
 * (`changed_since`) lists the objects whose current registration began after a time (`lora.py` at 2.4.0,
 * `registration_changed_since`). The stand-in stamps every object a write puts, and the seed with the time it
 * was seeded.
 */
export const registeredField = 'registered';

/** The mutations with every put object stamped as registered at `at`; deletions are left as they are. */
export function stampRegistration(mutations: readonly Mutation[], at: Date): Mutation[] {
  const registered = at.toISOString();
  return mutations.map((mutation) =>
    mutation.value === null
      ? mutation
      : { ...mutation, value: { ...mutation.value, [registeredField]: registered } },
  );
}

/**
 * Whether the object was last written after `since` (strictly, as LoRa compares). An object of a store written
 * before registrations were kept has no time: it counts as changed, so a reader that follows changes is told
 * about it once too often rather than never.
 */
export function registeredAfter(entity: StoredEntity, since: Date): boolean {
  const registered = entity[registeredField];
  if (typeof registered !== 'string') return true;
  return Date.parse(registered) > since.getTime();
}
