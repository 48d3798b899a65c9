import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { DeprecationNotice } from '../deprecation/deprecation-notice.js';

/** One entry of `extensions.deprecations`. */
export type DeprecationEntry =
  | {
      kind: 'version';
      version: string;
      deprecated: string;
      sunset?: string;
      replacement: string;
      migration_guide: string;
    }
  | { kind: 'field' | 'argument' | 'input_field' | 'enum_value'; coordinate: string; reason: string };

/** Whether the schema marks anything `@deprecated`: if not, no document needs to be searched. */
export function hasDeprecations(schema: GraphQLSchema): boolean {
  return Object.values(schema.getTypeMap()).some((type) => {
    if (type.name.startsWith('__')) return false;
    if (isEnumType(type)) return type.getValues().some((value) => value.deprecationReason != null);
    if (isInputObjectType(type)) {
      return Object.values(type.getFields()).some((field) => field.deprecationReason != null);
    }
    if (!isObjectType(type) && !isInterfaceType(type)) return false;
    return Object.values(type.getFields()).some(
      (field) => field.deprecationReason != null || field.args.some((arg) => arg.deprecationReason != null),
    );
  });
}

/** The `@deprecated` fields, arguments and enum values a document selects, each once, by schema coordinate. */
export function deprecatedSelections(schema: GraphQLSchema, document: DocumentNode): DeprecationEntry[] {
  const typeInfo = new TypeInfo(schema);
  const found = new Map<string, DeprecationEntry>();
  const note = (
    kind: 'field' | 'argument' | 'input_field' | 'enum_value',
    coordinate: string,
    reason: string | null | undefined,
  ) => {
    if (reason != null && !found.has(coordinate)) found.set(coordinate, { kind, coordinate, reason });
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      [Kind.FIELD]() {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field && parent) note('field', `${parent.name}.${field.name}`, field.deprecationReason);
      },
      [Kind.ARGUMENT]() {
        const argument = typeInfo.getArgument();
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (argument && field && parent) {
          note('argument', `${parent.name}.${field.name}(${argument.name}:)`, argument.deprecationReason);
        }
      },
      [Kind.OBJECT_FIELD](node) {
        const parent = getNamedType(typeInfo.getParentInputType());
        const field = isInputObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
        if (parent && field) note('input_field', `${parent.name}.${field.name}`, field.deprecationReason);
      },
      [Kind.ENUM]() {
        const value = typeInfo.getEnumValue();
        const type = getNamedType(typeInfo.getInputType());
        if (value && type) note('enum_value', `${type.name}.${value.name}`, value.deprecationReason);
      },
    }),
  );
  return [...found.values()];
}

export interface DeprecationNoticesOptions {
  schema: GraphQLSchema;
  /** Set when the version itself is deprecated. */
  version?: DeprecationNotice & { versionName: string };
}

/**
 * `extensions.deprecations` on every result that uses something deprecated: the version itself, and the
 * `@deprecated` fields, arguments and enum values the document selects (searched once per parsed document,
 * which Yoga reuses for repeated queries). Returns `undefined` when there is nothing to say for this
 * version, so the server runs without the plugin.
 */
export function useDeprecationNotices(options: DeprecationNoticesOptions): Plugin | undefined {
  const searchFields = hasDeprecations(options.schema);
  if (!searchFields && !options.version) return undefined;
  const notice = options.version;
  const versionEntry: DeprecationEntry[] = notice
    ? [
        {
          kind: 'version',
          version: notice.versionName,
          deprecated: notice.rule.deprecated.toISOString(),
          ...(notice.rule.sunset ? { sunset: notice.rule.sunset.toISOString() } : {}),
          replacement: notice.replacement,
          migration_guide: notice.guideUrl,
        },
      ]
    : [];
  const byDocument = new WeakMap<DocumentNode, DeprecationEntry[]>();
  const entriesOf = (document: DocumentNode) => {
    if (!searchFields) return versionEntry;
    let entries = byDocument.get(document);
    if (!entries)
      byDocument.set(
        document,
        (entries = [...versionEntry, ...deprecatedSelections(options.schema, document)]),
      );
    return entries;
  };
  return {
    onExecute({ args }) {
      const entries = entriesOf(args.document);
      if (entries.length === 0) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) return;
          setResult({ ...result, extensions: { ...result.extensions, deprecations: entries } });
        },
      };
    },
  };
}
