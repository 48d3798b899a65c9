import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isNonNullType } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { parse } from 'yaml';

/**
 * A Mesh v0 source transform that gives back the nullability the OpenAPI contract declares.
 *
 * Mesh's openapi handler drops `nullable: true` when it sits next to a one-member `allOf` (the OpenAPI
 * 3.0 way to say "this reference, or null"), so a vacant manager's `person`, a top unit's `parent` or
 * an owner record's `org_unit` became non-null, and Mesh's own server failed on the first null. This
 * reads the same contract and makes every object field nullable whose property says `nullable: true`.
 * It is `bare` (`noWrap`): it changes the source's own schema, the one that executes.
 *
 * Next to the same `allOf`, Mesh also drops the property's `description`; this gives it back, so the
 * org graph's descriptions are the contract's.
 *
 * Configuration: `contract`, the OpenAPI file, relative to the folder of `.meshrc.yaml`. Place it
 * before any renaming transform: it matches the contract's schema and property names.
 */
export default class ContractNullabilityTransform {
  noWrap = true;

  constructor({ config, baseDir }) {
    if (typeof config?.contract !== 'string') {
      throw new Error('contract-nullability: set `contract` to the OpenAPI file the source reads.');
    }
    const contract = parse(readFileSync(resolve(baseDir, config.contract), 'utf8'));
    /** Schema name → the properties that may be null. */
    this.nullableProperties = new Map();
    /** `Schema.property` → the property's description. */
    this.descriptions = new Map();
    for (const [schemaName, schema] of Object.entries(contract.components?.schemas ?? {})) {
      const nullable = Object.entries(schema.properties ?? {})
        .filter(([, property]) => property.nullable === true)
        .map(([propertyName]) => propertyName);
      if (nullable.length > 0) this.nullableProperties.set(schemaName, new Set(nullable));
      for (const [propertyName, property] of Object.entries(schema.properties ?? {})) {
        if (typeof property.description === 'string') {
          this.descriptions.set(`${schemaName}.${propertyName}`, property.description);
        }
      }
    }
  }

  transformSchema(schema) {
    return mapSchema(schema, {
      [MapperKind.OBJECT_FIELD]: (fieldConfig, fieldName, typeName) => {
        const mayBeNull = this.nullableProperties.get(typeName)?.has(fieldName);
        const description = fieldConfig.description || this.descriptions.get(`${typeName}.${fieldName}`);
        const type =
          mayBeNull && isNonNullType(fieldConfig.type) ? fieldConfig.type.ofType : fieldConfig.type;
        if (type === fieldConfig.type && description === fieldConfig.description) return undefined;
        return { ...fieldConfig, type, description };
      },
    });
  }
}
