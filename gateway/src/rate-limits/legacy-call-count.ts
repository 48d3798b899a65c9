import { AsyncLocalStorage } from 'node:async_hooks';

/** What a legacy client offers that makes a call: the JSON reads and writes, and the passthrough. */
interface CallingClient {
  json: (...args: never[]) => Promise<unknown>;
  forward: (...args: never[]) => Promise<unknown>;
}

/** The legacy calls made so far on behalf of the request whose work runs in this async context. */
const requestCalls = new AsyncLocalStorage<{ calls: number }>();

/**
 * The same legacy client, with each call it starts counted for the request on whose behalf it runs (see
 * `countLegacyCalls`); a call outside such a request (readiness, the sweep) counts for no one.
 */
export function countingLegacyCalls<Client extends CallingClient>(client: Client): Client {
  const counted =
    <Call extends (...args: never[]) => Promise<unknown>>(call: Call) =>
    (...args: Parameters<Call>) => {
      const counter = requestCalls.getStore();
      if (counter) counter.calls += 1;
      return call(...args);
    };
  return { ...client, json: counted(client.json), forward: counted(client.forward) };
}

/** Runs one request's `work`, and answers how many legacy calls it started through a counting client. */
export async function countLegacyCalls(work: () => Promise<void>): Promise<number> {
  const counter = { calls: 0 };
  await requestCalls.run(counter, work);
  return counter.calls;
}
