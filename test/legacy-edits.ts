/** What a legacy edit changed: the manager record and its type's user key before and after. */
export interface ManagerTypeChange {
  managerUuid: string;
  before: string;
  after: string;
}

/** A call to the legacy service, with whatever credential it needs (the test stack's `legacyFetch`). */
export type LegacyFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Gives a unit's first manager another manager type from today, through the legacy service's own write API
 * (`POST /service/details/edit`): a change to a legacy record the way any legacy client would make it.
 */
export async function changeManagerType(
  legacyFetch: LegacyFetch,
  unitUuid: string,
): Promise<ManagerTypeChange> {
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await legacyFetch(path, init);
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${init?.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  type Manager = { uuid: string; manager_type: { uuid: string; user_key: string } };
  const [manager] = await json<Manager[]>(`/service/ou/${unitUuid}/details/manager`);
  if (!manager) throw new Error(`unit ${unitUuid} has no manager to change`);
  const [organisation] = await json<{ uuid: string }[]>(`/service/o/`);
  const facet = await json<{ data: { items: { uuid: string; user_key: string }[] } }>(
    `/service/o/${organisation!.uuid}/f/manager_type/`,
  );
  const other = facet.data.items.find((type) => type.uuid !== manager.manager_type.uuid);
  if (!other) throw new Error('the manager_type facet has a single class');
  await json(`/service/details/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'manager',
      uuid: manager.uuid,
      data: { manager_type: { uuid: other.uuid }, validity: { from: new Date().toISOString().slice(0, 10) } },
    }),
  });
  return { managerUuid: manager.uuid, before: manager.manager_type.user_key, after: other.user_key };
}
