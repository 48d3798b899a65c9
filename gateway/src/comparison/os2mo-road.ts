import {
  buildSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  Kind,
  parse,
  print,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type ObjectFieldNode,
  type ValueNode,
} from 'graphql';
import { parseInstant, previousDay } from '../graphql/os2mo/date-time.js';
import { v30Omissions } from '../graphql/os2mo/ledger/index.js';
import { versionTypeDefs } from '../graphql/versions.js';
import { withoutDeprecated } from './deprecation-free.js';
import { isRecord } from './normal-form.js';
import type { GraphQLRequestBody } from './graphql-request-body.js';

/**
 * The comparison tools' road to OS2mo's GraphQL (v30): each `/service` read is checked with a v2 query,
 * written once; here it is put in OS2mo's shape (`objects { current { … } }`, OS2mo's names, `DateTime`
 * windows), and v30's answer is brought back to the comparable form (inclusive legacy dates). Whether v30
 * can answer is decided by the served v30 schema; why it cannot, by OS2mo's schema (through `v30Omissions`,
 * which the conformance test holds equal to OS2mo's printout minus what is served). A coordinate served
 * later turns a v2 fallback into a v30 proof with no edit here.
 */

/** OS2mo's name for a v2 field, kept under the v2 name (an alias) so the comparable form is read once. */
const os2moFieldNames: Record<string, string> = {
  employees: 'persons',
  employee: 'person',
  givenname: 'given_name',
  org_unit_type: 'unit_type',
  responsibility: 'responsibilities',
  dynamic_classes: 'dynamic_class',
};

/** OS2mo's v30 filters name a facet by a nested filter where v2 takes its user keys. */
const os2moFilterFields: Record<string, (value: ObjectFieldNode) => ObjectFieldNode> = {
  facets: (value) => ({
    ...value,
    name: { kind: Kind.NAME, value: 'facet' },
    value: {
      kind: Kind.OBJECT,
      fields: [
        { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'user_keys' }, value: value.value },
      ],
    },
  }),
};

const named = (value: string) => ({ kind: Kind.NAME, value }) as const;

/** A v2 filter's `at` (the day to read as of), removed from the filter, and the filter without it. */
function takeAt(field: FieldNode): { at: ValueNode | undefined; field: FieldNode } {
  const filter = field.arguments?.find((argument) => argument.name.value === 'filter');
  if (filter?.value.kind !== Kind.OBJECT) return { at: undefined, field };
  const at = filter.value.fields.find((entry) => entry.name.value === 'at');
  if (at === undefined) return { at: undefined, field };
  // OS2mo reads as of a day through the response's `current(at:)`; its filter keeps every object valid from
  // that day on (`to_date: null`), and one not valid on the day answers `current: null`.
  const window = [
    { kind: Kind.OBJECT_FIELD, name: named('from_date'), value: at.value },
    { kind: Kind.OBJECT_FIELD, name: named('to_date'), value: { kind: Kind.NULL } },
  ] as const;
  const fields = [...filter.value.fields.filter((entry) => entry !== at), ...window];
  const argumentsWithout = field.arguments!.map((argument) =>
    argument === filter ? { ...argument, value: { ...filter.value, fields } } : argument,
  );
  return { at: at.value, field: { ...field, arguments: argumentsWithout } };
}

/** `objects { … }` of a page as OS2mo's `objects { current { … } }`, as of `at` when one is given. */
function currentOf(objects: FieldNode, at: ValueNode | undefined): FieldNode {
  if (objects.selectionSet === undefined) return objects;
  const current: FieldNode = {
    kind: Kind.FIELD,
    name: named('current'),
    ...(at === undefined ? {} : { arguments: [{ kind: Kind.ARGUMENT, name: named('at'), value: at }] }),
    selectionSet: objects.selectionSet,
  };
  return { ...objects, selectionSet: { kind: Kind.SELECTION_SET, selections: [current] } };
}

/**
 * Puts a v2 document in OS2mo's shape: each page's `objects` wrapped in `current` (a filter's `at` moved
 * there), OS2mo's names kept under v2's, its facet filter, `DateTime` days and `int` page sizes.
 */
export function toOs2moDocument(document: DocumentNode): DocumentNode {
  return visit(document, {
    VariableDefinition: (node) => {
      const type = print(node.type).replace(/!$/, '');
      // OS2mo pages with its own `int` scalar (every Int variable of the checks is a page size), and takes
      // days as `DateTime`.
      const os2mo = type === 'Int' ? 'int' : type === 'Date' ? 'DateTime' : undefined;
      return os2mo === undefined ? node : { ...node, type: { kind: Kind.NAMED_TYPE, name: named(os2mo) } };
    },
    Field: (node): FieldNode => {
      const renamed = os2moFieldNames[node.name.value];
      // Only links (with a selection), root collections and `givenname` are renamed; a scalar `employee` stays.
      const rename = renamed !== undefined && (node.selectionSet !== undefined || renamed === 'given_name');
      const field: FieldNode = rename
        ? { ...node, alias: node.alias ?? named(node.name.value), name: named(renamed) }
        : node;
      if (field.selectionSet === undefined) return field;
      const { at, field: withoutAt } = takeAt(field);
      const selections = withoutAt.selectionSet!.selections.map((selection) =>
        selection.kind === Kind.FIELD && selection.name.value === 'objects'
          ? currentOf(selection, at)
          : selection,
      );
      return { ...withoutAt, selectionSet: { kind: Kind.SELECTION_SET, selections } };
    },
    ObjectField: (node) => os2moFilterFields[node.name.value]?.(node) ?? node,
  });
}

/** What a document asks of a schema that the schema lacks, by schema coordinate (`Type.field`, `Input.field`). */
export function missingCoordinates(schema: GraphQLSchema, document: DocumentNode): string[] {
  const typeInfo = new TypeInfo(schema);
  const missing = new Set<string>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: (node) => {
        const parent = typeInfo.getParentType();
        if (parent && !typeInfo.getFieldDef()) missing.add(`${parent.name}.${node.name.value}`);
      },
      Argument: (node: ArgumentNode) => {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field && parent && !typeInfo.getArgument()) {
          missing.add(`${parent.name}.${field.name}(${node.name.value}:)`);
        }
      },
      ObjectField: (node) => {
        const input = getNamedType(typeInfo.getParentInputType() ?? undefined);
        if (isInputObjectType(input) && input.getFields()[node.name.value] === undefined) {
          missing.add(`${input.name}.${node.name.value}`);
        }
      },
    }),
  );
  return [...missing].sort();
}

/**
 * A read's own v30 form, for a read whose v2 query does not translate (OS2mo keeps the data elsewhere, e.g.
 * versions under a response's `validities`): the request in OS2mo's shape, and its (`os2moData`-normalised)
 * answer in the v2 query's shape, so a check reads either answer the same way.
 */
export interface Os2moForm {
  request: GraphQLRequestBody;
  asV2: (data: unknown) => unknown;
}

/** Which version proves a read, and on v2 why v30 cannot. */
export type Os2moRoad =
  | {
      version: 'v30';
      request: GraphQLRequestBody;
      /** Whether the v2 request itself, put in OS2mo's shape, runs (else one of the read's own forms). */
      translated: boolean;
      asV2: (data: unknown) => unknown;
    }
  | { version: 'v2'; request: GraphQLRequestBody; reason: string; missing: string[] };

/**
 * Why v30 cannot answer, from the coordinates it lacks: OS2mo's schema has each (not served yet) or has no
 * place for it. Sentences name the coordinates, never a hand-written claim about OS2mo.
 */
export function os2moReason(missing: readonly string[], omissions = v30Omissions): string {
  const has = missing.filter((coordinate) => coordinate in omissions);
  const lacks = missing.filter((coordinate) => !(coordinate in omissions));
  const names = (list: readonly string[]) => list.map((coordinate) => `\`${coordinate}\``).join(', ');
  const parts = [
    ...(lacks.length > 0
      ? [
          `OS2mo has no place for it (${names(lacks)} ${lacks.length > 1 ? 'are' : 'is'} not in OS2mo's schema)`,
        ]
      : []),
    ...(has.length > 0
      ? [
          `OS2mo has it (${names(has)}); served from v2 until /graphql/v30 serves ${has.length > 1 ? 'them' : 'it'}`,
        ]
      : []),
  ];
  return `${parts.join('; ')}.`;
}

/**
 * Why none of a read's forms runs on v30, from what each lacks: a form whose every missing coordinate is in
 * OS2mo's schema says so (serving those would do); if every form needs something OS2mo has no place for,
 * the reason names all of it.
 */
export function formsReason(
  missingPerForm: readonly (readonly string[])[],
  omissions = v30Omissions,
): string {
  const servable = missingPerForm.find(
    (missing) => missing.length > 0 && missing.every((coordinate) => coordinate in omissions),
  );
  if (servable !== undefined) return os2moReason(servable, omissions);
  return os2moReason([...new Set(missingPerForm.flat())].sort(), omissions);
}

let servedV30: GraphQLSchema | undefined;

/** The v30 schema this build serves (its SDL; built once, on first use). */
export function servedV30Schema(): GraphQLSchema {
  servedV30 ??= buildSchema(versionTypeDefs().v30);
  return servedV30;
}

/** Why a document cannot run on a schema: the coordinates it lacks, else the first validation error. */
function blockers(schema: GraphQLSchema, document: DocumentNode) {
  const missing = missingCoordinates(schema, document);
  const errors = missing.length === 0 ? validate(schema, document) : [];
  return { missing, error: errors[0]?.message };
}

/**
 * The road of one v2 check request: v30 in OS2mo's shape when the served v30 answers every field and
 * filter it asks for, else the first of the read's own v30 `forms` the served v30 answers, else v2 with
 * the reason.
 */
export function os2moRoad(
  request: GraphQLRequestBody,
  schema = servedV30Schema(),
  forms: readonly Os2moForm[] = [],
): Os2moRoad {
  const document = toOs2moDocument(parse(request.query));
  const translated = blockers(schema, document);
  if (translated.missing.length === 0 && translated.error === undefined) {
    return {
      version: 'v30',
      request: { ...request, query: print(document) },
      translated: true,
      asV2: (data) => data,
    };
  }
  const others = forms.map((form) => ({ form, ...blockers(schema, parse(form.request.query)) }));
  const runs = others.find((other) => other.missing.length === 0 && other.error === undefined);
  if (runs !== undefined) {
    return { version: 'v30', request: runs.form.request, translated: false, asV2: runs.form.asV2 };
  }
  const missing = [translated, ...others].map((blocked) => blocked.missing);
  const reason = missing.some((list) => list.length > 0)
    ? formsReason(missing.filter((list) => list.length > 0))
    : `Put in OS2mo's shape, the query is not valid on /graphql/v30: ${translated.error!}`;
  return { version: 'v2', request, reason, missing: [...new Set(missing.flat())].sort() };
}

/** Stands for an elided selection (`{ … }`) while a replacement is parsed. */
const elided = '__elided';

/** A shown selection's missing coordinates (an elided selection `{ … }` asks for nothing). */
const shownMissing = (schema: GraphQLSchema, document: DocumentNode) =>
  missingCoordinates(schema, document).filter((coordinate) => !coordinate.endsWith(`.${elided}`));

/** A shown selection as one line, `…` for an elided selection. */
const shownText = (document: DocumentNode) =>
  print(document).replace(/\s+/g, ' ').replaceAll(elided, '…').slice(2, -2);

/**
 * The newest served version of a replacement as the coverage report and a `410` name it (a selection
 * without an operation, e.g. `org_units { objects { uuid } }`): v30 in OS2mo's shape when the served v30
 * has every field and filter it names, else the first of the read's own v30 `forms` (selections in OS2mo's
 * shape) the served v30 has, else the v2 text with the reason.
 */
export function os2moReplacement(
  v2: string,
  schema = servedV30Schema(),
  forms: readonly string[] = [],
): { version: 'v30'; query: string } | { version: 'v2'; query: string; reason: string } {
  const document = toOs2moDocument(parse(`{ ${v2.replaceAll('…', elided)} }`));
  const missing = shownMissing(schema, document);
  // Shown to integrations in OS2mo's own names (the aliases that keep v2's names for the comparison go),
  // in the fields v30 keeps: a link v30 deprecates is shown as its `*_response`.
  if (missing.length === 0) {
    return { version: 'v30', query: shownText(withoutDeprecated(schema, withoutAliases(document))) };
  }
  const others = forms.map((form) => parse(`{ ${form.replaceAll('…', elided)} }`));
  const formMissing = others.map((other) => shownMissing(schema, other));
  const runs = formMissing.findIndex((list) => list.length === 0);
  if (runs >= 0) return { version: 'v30', query: shownText(withoutDeprecated(schema, others[runs]!)) };
  return { version: 'v2', query: v2, reason: formsReason([missing, ...formMissing]) };
}

const withoutAliases = (document: DocumentNode) =>
  visit(document, { Field: (node) => ({ ...node, alias: undefined }) });

/**
 * A selection in v2's names put in OS2mo's shape, in OS2mo's names (no aliases): a read's own form, which
 * `os2moReplacement` shows in the fields v30 keeps.
 */
export function os2moSelection(v2: string): string {
  return shownText(withoutAliases(toOs2moDocument(parse(`{ ${v2.replaceAll('…', elided)} }`))));
}

/** A v2 request put in OS2mo's shape, whether or not v30 serves all of it (the road decides that). */
export function os2moDocument(request: GraphQLRequestBody): GraphQLRequestBody {
  return { ...request, query: print(toOs2moDocument(parse(request.query))) };
}

/** An OS2mo `DateTime` as the legacy calendar day it starts; other values unchanged. */
const startDay = (value: unknown) =>
  typeof value === 'string' ? (parseInstant(value)?.day ?? value) : value;

/** OS2mo's exclusive end (the next day's midnight) as the legacy inclusive last day. */
const lastDay = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const instant = parseInstant(value);
  if (instant === null) return value;
  return instant.midnight ? previousDay(instant.day) : instant.day;
};

/** A schema's object-valued fields by name, and whether each is a list, a single object, or both. */
function linkShapes(schema: GraphQLSchema): Map<string, Set<'list' | 'single'>> {
  const shapes = new Map<string, Set<'list' | 'single'>>();
  const roots = [schema.getQueryType(), schema.getMutationType()];
  // Records' links only: the root fields and the page, response and payload wrappers are no link.
  const wrapper = /(Response|ResponsePaged|Page|Payload)$/;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.includes(type)) continue;
    if (wrapper.test(type.name)) continue;
    for (const link of Object.values(type.getFields())) {
      const target = getNamedType(link.type);
      if (!isObjectType(target) || wrapper.test(target.name)) continue;
      const shape = isListType(getNullableType(link.type)) ? 'list' : 'single';
      shapes.set(link.name, (shapes.get(link.name) ?? new Set()).add(shape));
    }
  }
  return shapes;
}

/**
 * The links (by v2 name, the key an answer carries) whose shape differs between the served v2 and v30:
 * `toOne`, where OS2mo lists at most one object and v2 gives the object (`person`, a KLE's `kle_number`);
 * `toList`, where OS2mo gives one object and v2 a list (an association's `dynamic_class`).
 */
export function linkShapeChanges(v2: GraphQLSchema, v30: GraphQLSchema) {
  const before = linkShapes(v2);
  const after = linkShapes(v30);
  const toOne = new Set<string>();
  const toList = new Set<string>();
  for (const [name, shapes] of before) {
    const os2mo = after.get(os2moFieldNames[name] ?? name);
    if (os2mo === undefined) continue;
    if (shapes.has('single') && os2mo.has('list')) toOne.add(name);
    if (shapes.has('list') && os2mo.has('single')) toList.add(name);
  }
  return { toOne, toList };
}

let servedLinks: ReturnType<typeof linkShapeChanges> | undefined;

/** The served schemas' link shape changes (computed once, on first use). */
const servedLinkShapes = () =>
  (servedLinks ??= linkShapeChanges(buildSchema(versionTypeDefs().v2), servedV30Schema()));

/**
 * v30's `data` in v2's shape, the one normalisation of the road: each response's `current` in place of the
 * response, links in v2's shape (`linkShapeChanges`), and every `validity` in legacy days (OS2mo's `to` is
 * the exclusive midnight after the last day).
 */
export function os2moData(value: unknown, links = servedLinkShapes()): unknown {
  const inside = (inner: unknown) => os2moData(inner, links);
  if (Array.isArray(value)) return value.map(inside);
  if (!isRecord(value)) return value;
  const entries = Object.entries(value).map(([key, inner]) => {
    if (
      key === 'objects' &&
      Array.isArray(inner) &&
      inner.every((item) => isRecord(item) && 'current' in item)
    ) {
      return [
        key,
        inner
          .map((item) => (item as { current: unknown }).current)
          .filter((item) => item !== null)
          .map(inside),
      ];
    }
    if (links.toOne.has(key) && Array.isArray(inner) && inner.length <= 1)
      return [key, inside(inner[0] ?? null)];
    if (links.toList.has(key) && !Array.isArray(inner))
      return [key, inner === null || inner === undefined ? [] : [inside(inner)]];
    if (key === 'validity' && isRecord(inner)) {
      return [key, { ...inner, from: startDay(inner['from']), to: lastDay(inner['to']) }];
    }
    return [key, inside(inner)];
  });
  return Object.fromEntries(entries);
}
