import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { LegacyError } from '../errors.js';

export interface ExportRouteOptions {
  /** The folder of export files (OS2mo's `QUERY_EXPORT_DIR`); none answers as a missing folder. */
  exportDir: string | undefined;
}

const dirNotFound = () => new LegacyError(500, 'E_DIR_NOT_FOUND', 'Directory does not exist.');
const fileNotFound = (name: string) => new LegacyError(404, 'E_NOT_FOUND', 'Not found.', { filename: name });

/** The media types of the files exports hold; anything else is `text/plain`, as Starlette's `FileResponse` guesses. */
const mediaTypes: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.html': 'text/html; charset=utf-8',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
};

async function isDirectory(path: string | undefined): Promise<boolean> {
  if (path === undefined) return false;
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/**
 * OS2mo 2.4.0's exports router (`backend/mora/service/exports.py`): the names of the files in the export
 * folder (sub-folders left out), and one file by name. A missing folder is 500 `E_DIR_NOT_FOUND` and a missing
 * file 404 `E_NOT_FOUND` with its `filename`, as 2.4.0 answers (`backend/tests/test_service_exports.py`). A
 * name is one path segment: one that would leave the folder (`..`, a separator) names no file in it.
 */
export function exportRoutes({ exportDir }: ExportRouteOptions): Hono {
  const app = new Hono({ strict: false });

  app.get('/exports', async (c) => {
    if (exportDir === undefined || !(await isDirectory(exportDir))) throw dirNotFound();
    const names = (await readdir(exportDir)).sort();
    const files: string[] = [];
    for (const name of names) if (await isFile(join(exportDir, name))) files.push(name);
    return c.json(files);
  });

  app.get('/exports/:file_name', async (c) => {
    const name = c.req.param('file_name');
    if (exportDir === undefined || !(await isDirectory(exportDir))) throw dirNotFound();
    const path = join(exportDir, name);
    if (name === '.' || name === '..' || /[/\\\0]/.test(name) || !(await isFile(path))) {
      throw fileNotFound(name);
    }
    const { size } = await stat(path);
    const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': mediaTypes[extname(name).toLowerCase()] ?? 'text/plain; charset=utf-8',
        'content-length': String(size),
      },
    });
  });

  return app;
}
