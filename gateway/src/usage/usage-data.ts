/** Where a usage report's numbers come from. */
export type UsageSource =
  | {
      kind: 'prometheus';
      /** The oldest gateway sample Prometheus holds within the window; absent when it holds none. */
      since?: string;
      window_seconds: number;
    }
  | { kind: 'replica'; since: string; window_seconds: number };

/** Calls to one endpoint (a `/service` template, or a GraphQL version) by one client with one set of flags. */
export interface CallUsage {
  client: string;
  surface: 'service' | 'graphql';
  /** `GET /service/ou/{uuid}/` or, for GraphQL, the version (`v2`). */
  endpoint: string;
  /** `/service`: the contract flags used (`at,validity=past`, `none`); GraphQL: the operation type. */
  flags: string;
  count: number;
  /** Seconds since the epoch; absent when not known. */
  last_seen?: number;
}

/** Selections of one schema coordinate in one version by one client. */
export interface FieldUsage {
  client: string;
  version: string;
  coordinate: string;
  count: number;
  last_seen?: number;
}

/** What the report is made from: the same shape whether read from Prometheus or from this replica. */
export interface UsageData {
  source: UsageSource;
  calls: CallUsage[];
  fields: FieldUsage[];
  /** Requests the comparison tools (workbench, CLI, coverage) sent: left out of `calls`. */
  tool_requests: number;
  /** Calls (both surfaces) per client per UTC day, oldest first. */
  daily: { day: string; client: string; count: number }[];
}
