import type { DocumentNode } from 'graphql';

/** The limits of the one cache of parsed documents every served version shares (`GRAPHQL_DOCUMENT_CACHE_*`). */
export interface DocumentBudgetLimits {
  /** Documents (and parse errors) kept across all versions together. */
  maxEntries: number;
  /** The documents' text kept across all versions together, in UTF-8 bytes. */
  maxBytes: number;
}

/** What Yoga's parser cache asks of a store (`parserAndValidationCache`'s `documentCache`, `errorCache`). */
export interface CacheStore<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

interface Entry {
  value: unknown;
  bytes: number;
}

/**
 * One bounded cache for the parsed documents (and parse errors) of every version, least recently used out
 * first, bounded by entries and by the bytes of the documents' text. What else a document costs lives only
 * as long as its parsed node does: Yoga keeps its validation result, and `useCompiledExecution` its compiled
 * code, in weak maps keyed by that node, so the budget bounds them too. Each version sees its own part
 * (`documents(version)`): a key is the version, the kind and the document's exact text, so one version never
 * answers with another's parse.
 *
 * @example
 * const budget = createDocumentBudget({ maxEntries: 2_000, maxBytes: 8 * 1024 * 1024 });
 * createYoga({ parserAndValidationCache: budget.forVersion('v30'), … });
 */
export function createDocumentBudget(limits: DocumentBudgetLimits) {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const evict = () => {
    for (const [key, entry] of entries) {
      if (entries.size <= limits.maxEntries && bytes <= limits.maxBytes) return;
      entries.delete(key);
      bytes -= entry.bytes;
    }
  };

  const store = <T>(prefix: string): CacheStore<T> => ({
    get(key) {
      const id = prefix + key;
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      // Used again: to the back of the line.
      entries.delete(id);
      entries.set(id, entry);
      return entry.value as T;
    },
    set(key, value) {
      const id = prefix + key;
      const size = Buffer.byteLength(key);
      // A document larger than the whole budget is parsed each time rather than pushing every other out.
      if (size > limits.maxBytes) return;
      const old = entries.get(id);
      if (old !== undefined) {
        entries.delete(id);
        bytes -= old.bytes;
      }
      entries.set(id, { value, bytes: size });
      bytes += size;
      evict();
    },
  });

  return {
    /** Yoga's `parserAndValidationCache` for one version: its documents and parse errors in the shared budget. */
    forVersion(version: string) {
      return {
        documentCache: store<DocumentNode>(`${version}\ndocument\n`),
        errorCache: store<unknown>(`${version}\nerror\n`),
        validationCache: true,
      };
    },
    /** What is kept now, across all versions. */
    usage: () => ({ entries: entries.size, bytes }),
    limits,
  };
}

export type DocumentBudget = ReturnType<typeof createDocumentBudget>;
