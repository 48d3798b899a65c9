import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLContext } from '../context.js';
import type { ServiceVersionRecord } from '../../legacy/contract-records.generated.js';

/**
 * OS2mo's `Query.version`, answered from the Service API's `GET /version/` (OS2mo 2.x, `mora/app.py`):
 * 2.x reports its release and its LoRa store's; it holds no commit hash, so `mo_hash` is null.
 */
export const serviceVersionTypeDefs = `
"""The release of the OS2mo Service API behind the gateway."""
type Version {
  """The backend's OS2mo release, e.g. \`2.4.0\`."""
  mo_version: String

  """The backend's commit hash: OS2mo 2.x does not report one, so always null."""
  mo_hash: String

  """The release of the LoRa store behind the backend, as it reports it."""
  lora_version: String @deprecated(reason: "MO and LoRa are shipped and versioned together")
}

extend type Query {
  """The release of the OS2mo Service API behind the gateway."""
  version: Version!
}
`;

export const serviceVersionResolvers = {
  Query: {
    version: (_root: unknown, _args: unknown, context: GraphQLContext) => context.legacy.version(),
  },
  Version: {
    mo_version: (version: ServiceVersionRecord) => version.mo_version,
    mo_hash: () => null,
    lora_version: (version: ServiceVersionRecord) => version.lora_version ?? null,
  },
} as IResolvers;
