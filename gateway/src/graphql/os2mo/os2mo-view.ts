import { getNamedType, buildSchema, isObjectType, type GraphQLSchema } from 'graphql';
import type { TypeView } from './ledger/index.js';
import { linkFilterTypeDefs } from './link-filters.js';

/**
 * OS2mo's names for the org graph's types: the graph is the one description of what the Service API serves,
 * and OS2mo's versions show it under OS2mo's names.
 */
export const os2moTypeNames: Readonly<Record<string, string>> = {
  OrgUnit: 'OrganisationUnit',
  Employee: 'Employee',
  Engagement: 'Engagement',
  Manager: 'Manager',
  Class: 'Class',
  Facet: 'Facet',
  ITSystem: 'ITSystem',
  Owner: 'Owner',
  Address: 'Address',
  Association: 'Association',
  ITUser: 'ITUser',
  KLE: 'KLE',
  Leave: 'Leave',
  RelatedUnit: 'RelatedUnit',
  Organisation: 'Organisation',
  Validity: 'Validity',
  UUID: 'UUID',
  Date: 'DateTime',
  String: 'String',
  Int: 'Int',
  Boolean: 'Boolean',
};

/**
 * Checks every view against the org graph: the backing field exists, and its element type is the one the
 * view names (after OS2mo's renaming), or a UUID key of a link. Fails with every mismatch, so that a change
 * of the graph cannot silently change what v30 serves.
 */
export function checkViews(graph: GraphQLSchema, views: Readonly<Record<string, TypeView>>): void {
  const problems: string[] = [];
  for (const [typeName, view] of Object.entries(views)) {
    const graphType = graph.getType(view.graphType);
    if (!isObjectType(graphType)) {
      problems.push(`${typeName} views ${view.graphType}, which the org graph does not have`);
      continue;
    }
    for (const [fieldName, field] of Object.entries(view.fields)) {
      if (field.legacy || field.none || field.own) continue;
      const source = graphType.getFields()[field.from ?? fieldName];
      if (!source) {
        problems.push(`${typeName}.${fieldName} needs ${view.graphType}.${field.from ?? fieldName}`);
        continue;
      }
      const graphElement = getNamedType(source.type).name;
      const element = field.type.replace(/[[\]!]/g, '');
      const served = field.response ? element.replace(/ResponsePaged$|Response$/, '') : element;
      const renamed = os2moTypeNames[graphElement] ?? graphElement;
      const isKey = field.response
        ? graphElement === 'UUID'
        : served === 'UUID' && isObjectType(getNamedType(source.type));
      if (renamed !== served && !isKey) {
        problems.push(
          `${typeName}.${fieldName} is ${served}, but ${view.graphType}.${source.name} holds ${graphElement}`,
        );
      }
    }
  }
  if (problems.length > 0)
    throw new Error(`v30's view of the org graph is out of date: ${problems.join('; ')}.`);
}

function escapeDescription(text: string): string {
  return JSON.stringify(text);
}

/** The bound filter input types the views' fields take (a link's, or an own resolver's), each once. */
function linkFilterInputs(views: Readonly<Record<string, TypeView>>): string[] {
  const inputs = Object.values(views).flatMap((view) =>
    Object.values(view.fields).flatMap((field) => {
      const named = /filter: (\w+)/.exec(field.args ?? '')?.[1];
      return named ? [named] : [];
    }),
  );
  return [...new Set(inputs)].sort();
}

/** The SDL of the viewed types, in OS2mo's names and types. */
export function viewTypeDefs(graphTypeDefs: string, views: Readonly<Record<string, TypeView>>): string {
  checkViews(buildSchema(graphTypeDefs), views);
  return Object.entries(views)
    .map(([typeName, view]) => {
      const fields = Object.entries(view.fields).map(([name, field]) => {
        const args = field.args ? `(${field.args})` : '';
        const deprecated = field.deprecated
          ? ` @deprecated(reason: ${escapeDescription(field.deprecated)})`
          : '';
        return `  ${name}${args}: ${field.type}${deprecated}`;
      });
      const description = view.description ? `${escapeDescription(view.description)}\n` : '';
      return `${description}type ${typeName} {\n${fields.join('\n')}\n}\n`;
    })
    .concat(linkFilterTypeDefs(linkFilterInputs(views)))
    .join('\n');
}
