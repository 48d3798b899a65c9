/**
 * The heaviest page of OS2mo's UI on the gateway, as the UI trial counts legacy calls: the navbar's person
 * search (os2mo-naldo `web/src/lib/components/search/Search.svelte`, its `EmployeeSearch` query, sent with
 * `limit: 30` and the day's window). The query is ours, in the UI's shape, as `test/os2mo-ui-shapes.test.ts`
 * writes it. Its direct plan replays the gateway's own legacy calls by hand, round by round: it measures what
 * the gateway adds over the plan it chose; whether that plan is minimal is the upstream-plan tests' concern.
 */
import type { LegacyGet } from './v30-plans.js';

/** The person search's document and variables for one search text, on the day `today` (`YYYY-MM-DD`). */
export function uiPersonSearchBody(text: string, today: string): string {
  return JSON.stringify({
    query: `query UiPersonSearch($filter: EmployeeFilter!, $limit: int, $at: DateTime) {
      employees(filter: $filter, limit: $limit) {
        objects { validities {
          uuid name cpr_number validity { from to }
          itusers { user_key }
          addresses {
            address_type_response { uuid current(at: $at) { name } }
            resolve { ... on DefaultAddress { __typename value } }
          }
        } }
      }
    }`,
    variables: { filter: { from_date: today, query: text }, limit: 30, at: today },
  });
}

/** One legacy call of an upstream trace (`X-Upstream-Trace: 1`): its path and the round it waited for. */
export interface TracedCall {
  path: string;
  round: number;
}

/** The trace's calls by round, in order: what a careful client would send at once, then wait for. */
export function roundsOf(calls: readonly TracedCall[]): string[][] {
  const rounds: string[][] = [];
  for (const call of calls) (rounds[call.round - 1] ??= []).push(call.path);
  return rounds.filter((round) => round !== undefined);
}

/** Makes the rounds' calls by hand: each round's at once, the next when they have answered. */
export async function replayRounds(get: LegacyGet, rounds: readonly string[][]): Promise<number> {
  let made = 0;
  for (const round of rounds) {
    await Promise.all(round.map((path) => get(path)));
    made += round.length;
  }
  return made;
}
