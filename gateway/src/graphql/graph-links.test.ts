import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSchema, Kind, parse, type DocumentNode } from 'graphql';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { declaredLinkResolvers, entityResolvers, singleLink } from './resolvers/entities.js';
import { hierarchyResolvers } from './resolvers/hierarchy.js';
import { organisationResolvers } from './resolvers/organisation.js';
import { v2QueryResolvers } from './resolvers/v2-query.js';
import { meshConfigPath, generatedFiles } from '../org-graph/generate.js';
import { graphLinks, type GatewayRecipe, type GraphLink } from './graph-links.js';
import type { MeshGraphLinks } from '../org-graph/graph-links-module.js';
import { repositoryRoot } from '../org-graph/mesh-build.js';

type ResolverMap = Record<string, Record<string, unknown>>;

/** What the Mesh peer's resolvers module (plain JavaScript) exports. */
interface MeshResolversModule {
  recipes: ResolverMap;
  resolvers: ResolverMap;
  linkResolvers(links: MeshGraphLinks, recipes: ResolverMap): ResolverMap;
}

const loadMeshResolvers = async () =>
  (await import(
    pathToFileURL(join(repositoryRoot, 'gateway', 'mesh', 'org-graph-resolvers.js')).href
  )) as MeshResolversModule;

const declared = Object.entries(graphLinks as Record<string, Record<string, GraphLink>>).flatMap(
  ([type, fields]) =>
    Object.entries(fields).map(([field, link]) => ({ coordinate: `${type}.${field}`, link })),
);
const coordinates = (map: ResolverMap) =>
  Object.entries(map).flatMap(([type, fields]) => Object.keys(fields).map((field) => `${type}.${field}`));

/** Every field `.meshrc.yaml`'s type definitions add: the extensions' fields and the new object types'. */
async function addedFields(): Promise<string[]> {
  const config = parseYaml(await readFile(meshConfigPath, 'utf8')) as { additionalTypeDefs: string };
  const document: DocumentNode = parse(config.additionalTypeDefs);
  return document.definitions.flatMap((definition) =>
    definition.kind === Kind.OBJECT_TYPE_EXTENSION || definition.kind === Kind.OBJECT_TYPE_DEFINITION
      ? (definition.fields ?? []).map((field) => `${definition.name.value}.${field.name.value}`)
      : [],
  );
}

describe("the declaration of the org graph's links", () => {
  it('declares every field .meshrc.yaml adds to the graph, once, and nothing else', async () => {
    const added = await addedFields();
    expect(new Set(added).size).toBe(added.length);
    expect(declared.map(({ coordinate }) => coordinate).sort()).toEqual(added.sort());
  });

  it("declares fields of the gateway's graph (org-graph.graphql), save the Mesh peer's own roots", async () => {
    const graph = buildSchema(await readFile(generatedFiles.orgGraph, 'utf8'));
    const inGraph = (coordinate: string) => {
      const [type = '', field = ''] = coordinate.split('.');
      const named = graph.getType(type);
      return named !== undefined && 'getFields' in named && field in named.getFields();
    };
    for (const { coordinate, link } of declared) {
      const meshOnly = link.kind === 'custom' && link.gateway === 'none';
      expect([coordinate, inGraph(coordinate)]).toEqual([coordinate, !meshOnly]);
    }
  });
});

describe("the Mesh peer's recipes", () => {
  it('are exactly one for each link declared custom for Mesh, and every other link is built', async () => {
    const mesh = await loadMeshResolvers();
    const custom = declared
      .filter(({ link }) => link.kind === 'custom' && link.mesh === 'recipe')
      .map(({ coordinate }) => coordinate);
    expect(coordinates(mesh.recipes).sort()).toEqual(custom.sort());
    const served = declared
      .filter(({ link }) => !(link.kind === 'custom' && link.mesh === 'carried'))
      .map(({ coordinate }) => coordinate);
    expect(coordinates(mesh.resolvers).sort()).toEqual(served.sort());
  });

  it('fail the build when a custom link has no recipe, or a recipe serves a link not declared custom', async () => {
    const { linkResolvers } = await loadMeshResolvers();
    expect(() => linkResolvers({ Class: { facet: { kind: 'custom' } } }, {})).toThrow(
      'Class.facet is declared custom but has no recipe',
    );
    expect(() =>
      linkResolvers(
        { KLE: { org_unit_uuid: { kind: 'key', field: 'org_unit_ref' } } },
        { KLE: { org_unit_uuid: () => null } },
      ),
    ).toThrow(
      'KLE.org_unit_uuid has a recipe in org-graph-resolvers.js but graph-links.ts does not declare it custom',
    );
  });
});

describe("the gateway's recipes", () => {
  /** The gateway's resolvers of the graph's types, by the module that holds them (a version's own roots aside). */
  const modules = (): Record<Exclude<GatewayRecipe, 'none'>, ResolverMap> => {
    const { Query: _versionRoots, ...organisation } = organisationResolvers('v2', v2QueryResolvers());
    return {
      entities: entityResolvers(singleLink) as ResolverMap,
      hierarchy: hierarchyResolvers() as ResolverMap,
      organisation: organisation as ResolverMap,
    };
  };

  it('serve each declared link from one module: a custom one from the module declared, the others from entities', () => {
    const byModule = Object.entries(modules()).map(
      ([name, map]) => [name, new Set(coordinates(map))] as const,
    );
    for (const { coordinate, link } of declared) {
      const holders = byModule.filter(([, fields]) => fields.has(coordinate)).map(([name]) => name);
      const expected = link.kind !== 'custom' ? ['entities'] : link.gateway === 'none' ? [] : [link.gateway];
      expect([coordinate, holders]).toEqual([coordinate, expected]);
    }
  });

  it('refuse a custom link without its recipe, and a recipe for a link not declared custom there', () => {
    expect(() => declaredLinkResolvers(singleLink, 'hierarchy', {})).toThrow(
      'OrgUnit.ancestors is declared custom in hierarchy but has no recipe there.',
    );
    const hierarchy = hierarchyResolvers() as ResolverMap as Parameters<typeof declaredLinkResolvers>[2];
    expect(() =>
      declaredLinkResolvers(singleLink, 'hierarchy', {
        ...hierarchy,
        Manager: { employee: () => null },
      }),
    ).toThrow('Manager.employee has a recipe in hierarchy but graph-links.ts does not declare it there.');
  });
});
