import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { ComparisonError } from '../comparison/comparison-error.js';

/** One operation of the legacy contract under `/service`. */
export interface ContractOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the contract writes it, e.g. `/service/ou/{uuid}/details/address`. */
  path: string;
  summary: string;
  /**
   * Why the listing can never hold a record (the operation's `x-always-empty`), for listings OS2mo only
   * ever answers with `[]`: the report proves them equal and empty instead of leaving them unproven.
   */
  alwaysEmpty?: string;
}

/** The contract the coverage report lists, read when the report is made so it never lags behind. */
export const contractFile = fileURLToPath(new URL('../../../openapi/legacy-service.yaml', import.meta.url));

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every `/service` operation of a contract's text, in the contract's order. */
export function serviceOperations(contractText: string): ContractOperation[] {
  const contract = parseYaml(contractText) as { paths?: Record<string, Record<string, unknown>> };
  return Object.entries(contract.paths ?? {})
    .filter(([path]) => path.startsWith('/service/'))
    .flatMap(([path, item]) =>
      methods.flatMap((method) => {
        const operation = item[method] as
          { operationId?: unknown; summary?: unknown; 'x-always-empty'?: unknown } | undefined;
        if (operation === undefined) return [];
        const alwaysEmpty = operation['x-always-empty'];
        return [
          {
            operationId: String(operation.operationId ?? `${method} ${path}`),
            method: method.toUpperCase() as ContractOperation['method'],
            path,
            summary: typeof operation.summary === 'string' ? operation.summary : '',
            ...(typeof alwaysEmpty === 'string' ? { alwaysEmpty } : {}),
          },
        ];
      }),
    );
}

/** The operations of `openapi/legacy-service.yaml`; a missing contract is a comparison that cannot be made. */
export async function readServiceOperations(file = contractFile): Promise<ContractOperation[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ComparisonError(
      'failed',
      'The legacy contract (openapi/legacy-service.yaml) is not next to the gateway, so its endpoints cannot be listed.',
    );
  }
  return serviceOperations(text);
}

/** The operations of `openapi/legacy-service.yaml`, read at start by what must know them before serving. */
export function readServiceOperationsSync(file = contractFile): ContractOperation[] {
  return serviceOperations(readFileSync(file, 'utf8'));
}
