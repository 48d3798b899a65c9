import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface NaldoBuild {
  /** The extracted `web/` folder: `src/` for its documents, `build/` for `node build`. */
  web: string;
  /** The commit it was built from, or the content hash of a plain checkout. */
  version: string;
  reused: boolean;
}

/** Whether `path` is a git directory (bare, or a checkout's `.git`) rather than a work tree. */
function isGitDir(path: string): boolean {
  return existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'));
}

/** A content hash of a checkout's `web/` sources, so an edited checkout is built again. */
export function contentHash(web: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (['node_modules', 'build', '.svelte-kit'].includes(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (statSync(path).isFile()) hash.update(path.slice(web.length)).update(readFileSync(path));
    }
  };
  walk(web);
  return hash.digest('hex').slice(0, 16);
}

function run(command: string, args: string[], cwd: string, log: (line: string) => void): void {
  log(`  $ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${result.stderr.slice(-2000)}`,
    );
  }
}

/**
 * Extracts os2mo-naldo's `web/` from a checkout or its git directory into `buildRoot/{version}/web` and
 * builds it as its README says, with `--legacy-peer-deps` (a plain install fails on a peer conflict here).
 * A finished build of the same version is reused.
 */
export function buildNaldo(source: string, buildRoot: string, log: (line: string) => void): NaldoBuild {
  const gitDir = isGitDir(source)
    ? source
    : isGitDir(join(source, '.git'))
      ? join(source, '.git')
      : undefined;
  if (gitDir === undefined && !existsSync(join(source, 'web', 'package.json'))) {
    throw new Error(
      `${source} is neither an os2mo-naldo checkout (with web/package.json) nor its git directory.`,
    );
  }
  const version =
    gitDir !== undefined
      ? execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
      : contentHash(join(source, 'web'));
  const folder = join(buildRoot, version.slice(0, 16));
  const web = join(folder, 'web');
  if (existsSync(join(web, 'build', 'index.js'))) return { web, version, reused: true };

  mkdirSync(folder, { recursive: true });
  log(`Building os2mo-naldo ${version.slice(0, 12)} in ${web} (npm install and vite build take minutes)`);
  if (gitDir !== undefined) {
    execFileSync('sh', ['-c', `git --git-dir="$0" archive HEAD web | tar -x -C "$1"`, gitDir, folder]);
  } else {
    execFileSync('sh', [
      '-c',
      `tar -C "$0" --exclude=node_modules --exclude=build --exclude=.svelte-kit -cf - web | tar -x -C "$1"`,
      source,
      folder,
    ]);
  }
  run('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund'], web, log);
  run('npx', ['svelte-kit', 'sync'], web, log);
  run('npx', ['vite', 'build'], web, log);
  return { web, version, reused: false };
}
