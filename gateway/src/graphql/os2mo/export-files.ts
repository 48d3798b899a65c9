import { GraphQLError } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLContext } from '../context.js';
import { decodeCursor } from '../resolvers/pagination.js';
import { pageOf } from './collection-resolvers.js';

/**
 * OS2mo's `Query.files` (its file stores), backed by the Service API's export folder: `GET /service/exports/`
 * lists it and `GET /service/exports/{file_name}` reads one file (OS2mo 2.4.0 `service/exports.py:14`, `:45`).
 * 2.4.0 has that one folder, OS2mo's `EXPORTS` store; it has no `INSIGHTS` store, which answers as OS2mo
 * answers a store holding nothing: no files.
 */
export const exportFilesTypeDefs = `
"""A stored file available for download."""
type File {
  """The store the file is in."""
  file_store: FileStore!

  """Name of the file, e.g. \`report.csv\`."""
  file_name: String!

  """The file's contents read as UTF-8 text; for binary files use \`base64_contents\`."""
  text_contents: String!

  """The file's contents, base64 encoded."""
  base64_contents: String!
}

"""Which files \`files\` answers."""
input FileFilter {
  """The store to list: \`EXPORTS\` is the Service API's export folder; \`INSIGHTS\` holds nothing behind it."""
  file_store: FileStore!

  """Only the files of these names (\`null\` or \`[]\`: every file)."""
  file_names: [String!] = null

  """Only the files whose name holds this text, in any letter case."""
  file_name_contains: String = null
}

"""A page of files."""
type FilePaged {
  objects: [File!]!
  page_info: PageInfo!
}

"""OS2mo's file stores."""
enum FileStore {
  """The export folder of the Service API (OS2mo 2.4.0 \`QUERY_EXPORT_DIR\`), where reports are written."""
  EXPORTS

  """OS2mo's insights data: the Service API has no such store, so it holds no files."""
  INSIGHTS
}

extend type Query {
  """The files of a store, sorted by name."""
  files(filter: FileFilter!, limit: int = null, cursor: Cursor = null): FilePaged!
    @deprecated(reason: "The file-store functionality will be removed in a future version of OS2mo.")
}
`;

interface FileFilter {
  file_store: 'EXPORTS' | 'INSIGHTS';
  file_names?: string[] | null;
  file_name_contains?: string | null;
}

interface FileRoot {
  file_store: FileFilter['file_store'];
  file_name: string;
}

/** Which of the store's names the filter keeps (OS2mo `mora/db/files.py`, `ls`: an empty list keeps all). */
function kept(names: readonly string[], filter: FileFilter): string[] {
  const wanted = filter.file_names?.length ? new Set(filter.file_names) : undefined;
  const contains = filter.file_name_contains?.toLowerCase();
  return names
    .filter((name) => wanted === undefined || wanted.has(name))
    .filter((name) => contains === undefined || contains === null || name.toLowerCase().includes(contains))
    .sort();
}

/** The file's bytes: a name from the folder's listing, so one the Service API can address. */
const contents = (file: FileRoot, context: GraphQLContext): Promise<Buffer> =>
  context.legacy.exportFile(file.file_name);

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const exportFilesResolvers = {
  Query: {
    files: async (
      _root: unknown,
      args: { filter: FileFilter; limit?: number | null; cursor?: string | null },
      context: GraphQLContext,
    ) => {
      const offset = decodeCursor(args.cursor);
      const names = args.filter.file_store === 'EXPORTS' ? await context.legacy.exports() : [];
      const roots: FileRoot[] = kept(names, args.filter).map((file_name) => ({
        file_store: args.filter.file_store,
        file_name,
      }));
      return pageOf(roots, offset, args.limit);
    },
  },
  File: {
    text_contents: async (file: FileRoot, _args: unknown, context: GraphQLContext) => {
      const bytes = await contents(file, context);
      try {
        return utf8.decode(bytes);
      } catch {
        throw new GraphQLError(
          `The file ${JSON.stringify(file.file_name)} is not UTF-8 text: read base64_contents instead.`,
          { extensions: { code: 'BAD_USER_INPUT' } },
        );
      }
    },
    base64_contents: async (file: FileRoot, _args: unknown, context: GraphQLContext) =>
      (await contents(file, context)).toString('base64'),
  },
} as IResolvers;
