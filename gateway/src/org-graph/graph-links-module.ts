/**
 * The Mesh peer's half of the org graph's links (`gateway/mesh/graph-links.generated.js`): the declaration
 * in `gateway/src/graphql/graph-links.ts` in the names Mesh's build uses, so that `org-graph-resolvers.js` (plain JavaScript,
 * which Mesh imports as it is) builds its links from the same declaration as the gateway. A record's body
 * field takes the name `.meshrc.yaml`'s rename transform gives it; a legacy read, the contract's operation
 * id for its path. Written by `npm run graph:generate`; a drift test compares the committed module.
 */
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { ContractOperation } from '../contract/contract-operations.js';
import type { GraphLink, ListingOwner, ReferenceTarget } from '../graphql/graph-links.js';

/** One link as the Mesh peer's resolvers read it: `MeshLink` in org-graph-resolvers.js, which type-checks the generated module. */
export type MeshLink =
  | { kind: 'listing'; operationId: string; inherit?: string }
  | { kind: 'reference' | 'references'; field: string; operationId: string }
  | { kind: 'key' | 'keys'; field: string }
  | { kind: 'custom' }
  | { kind: 'carried' };

export type MeshGraphLinks = Record<string, Record<string, MeshLink>>;

/** The part of `.meshrc.yaml` this generator reads: the source transforms' renames. */
export interface MeshConfig {
  sources?: { transforms?: { rename?: { renames?: MeshRename[] } }[] }[];
}

interface MeshRename {
  from: { type: string; field?: string };
  to: { type: string; field?: string };
}

export const graphLinksFile = fileURLToPath(new URL('../../mesh/graph-links.generated.js', import.meta.url));

/**
 * Mesh's name of each renamed record field, by the graph's type and the contract's field
 * (`ITUser.org_unit` → `org_unit_ref`): a field rename names the contract's type, which a type rename
 * may give the graph another name (`ItUser` → `ITUser`).
 */
export function meshFieldNames(config: MeshConfig): Map<string, string> {
  const renames = (config.sources ?? []).flatMap((source) =>
    (source.transforms ?? []).flatMap((transform) => transform.rename?.renames ?? []),
  );
  const graphType = new Map(
    renames
      .filter((rename) => rename.from.field === undefined)
      .map((rename) => [rename.from.type, rename.to.type]),
  );
  return new Map(
    renames.flatMap((rename) =>
      rename.from.field === undefined || rename.to.field === undefined
        ? []
        : [[`${graphType.get(rename.from.type) ?? rename.from.type}.${rename.from.field}`, rename.to.field]],
    ),
  );
}

const ownerSegment: Record<ListingOwner, string> = { unit: 'ou', person: 'e' };
const targetSegment: Record<ReferenceTarget, string> = { OrgUnit: 'ou', Employee: 'e' };

/** The Mesh peer's links: every declared link with Mesh's field names and the contract's operation ids. */
export function meshGraphLinks(
  links: Record<string, Record<string, GraphLink>>,
  config: MeshConfig,
  operations: readonly ContractOperation[],
): MeshGraphLinks {
  const fieldNames = meshFieldNames(config);
  const readAt = (path: string, coordinate: string): ContractOperation => {
    const operation = operations.find((candidate) => candidate.method === 'GET' && candidate.path === path);
    if (!operation) throw new Error(`${coordinate}: the contract has no GET ${path}.`);
    return operation;
  };
  const meshLink = (type: string, field: string, link: GraphLink): MeshLink => {
    const coordinate = `${type}.${field}`;
    switch (link.kind) {
      case 'listing': {
        const operation = readAt(
          `/service/${ownerSegment[link.of]}/{uuid}/details/${link.detail}`,
          coordinate,
        );
        if (link.inherit === undefined) return { kind: 'listing', operationId: operation.operationId };
        if (!operation.flags.includes(link.inherit))
          throw new Error(`${coordinate}: ${operation.operationId} has no \`${link.inherit}\` flag.`);
        return { kind: 'listing', operationId: operation.operationId, inherit: link.inherit };
      }
      case 'reference':
      case 'references':
        return {
          kind: link.kind,
          field: fieldNames.get(`${type}.${link.field}`) ?? link.field,
          operationId: readAt(`/service/${targetSegment[link.target]}/{uuid}/`, coordinate).operationId,
        };
      case 'key':
      case 'keys':
        return { kind: link.kind, field: fieldNames.get(`${type}.${link.field}`) ?? link.field };
      case 'custom':
        return { kind: link.mesh === 'recipe' ? 'custom' : 'carried' };
    }
  };
  return Object.fromEntries(
    Object.entries(links).map(([type, fields]) => [
      type,
      Object.fromEntries(Object.entries(fields).map(([field, link]) => [field, meshLink(type, field, link)])),
    ]),
  );
}

/** The committed module's text, formatted as the repository formats JavaScript. */
export async function graphLinksModule(
  links: Record<string, Record<string, GraphLink>>,
  config: MeshConfig,
  operations: readonly ContractOperation[],
  outputPath = graphLinksFile,
): Promise<string> {
  const text = [
    '// Generated by `npm run graph:generate` from gateway/src/graphql/graph-links.ts, with the field names',
    "// of .meshrc.yaml's renames and the operation ids of openapi/legacy-service.yaml: do not edit.",
    '',
    '/**',
    " * The org graph's links as the Mesh peer reads them; `org-graph-resolvers.js` builds its resolvers from them.",
    " * @type {import('./org-graph-resolvers.js').MeshGraphLinks}",
    ' */',
    `export const graphLinks = ${JSON.stringify(meshGraphLinks(links, config, operations))};`,
    '',
  ].join('\n');
  return format(text, { ...(await resolveConfig(outputPath)), filepath: outputPath });
}
