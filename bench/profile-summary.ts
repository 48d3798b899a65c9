import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npx tsx bench/profile-summary.ts DIR_OR_FILE [--top 30]`: sums the self time of a V8 `.cpuprofile`
 * (what `npm run bench:cpu -- --profile DIR` writes) by function and by package, to see where the gateway's
 * CPU goes without opening DevTools. With a folder, reads its largest profile. Idle time is left out.
 */
interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    /** Also lists the call paths (three frames up) of the functions whose name contains this text. */
    callers: { type: 'string' },
  },
});
const top = Number(values.top);
let path = positionals[0] ?? '.';
if (!path.endsWith('.cpuprofile')) {
  const folder = path;
  const files = (await readdir(folder)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`No .cpuprofile in ${folder}.`);
  // A tsx process also profiles its loader thread; the main thread's profile is the largest.
  const sizes = await Promise.all(files.map(async (name) => (await stat(join(folder, name))).size));
  path = join(folder, files[sizes.indexOf(Math.max(...sizes))]!);
}
const profile = JSON.parse(await readFile(path, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** Where a frame's code lives: a package under node_modules, node's own, the project's file, or V8. */
function owner({ url }: ProfileNode['callFrame']): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + 'node_modules/'.length).split('/');
    return first!.startsWith('@') ? `${first}/${second}` : first!;
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  if (url === '') return '(v8)';
  const project =
    url.match(/\/(gateway|legacy-service|idp|bench)\/src\/(.*)$/) ?? url.match(/\/(gateway|bench)\/(.*)$/);
  return project ? `${project[1]}/${project[2]}` : url;
}

const byFunction = new Map<string, number>();
const byOwner = new Map<string, number>();
/** Time with the function anywhere on the stack (counted once per sample, however often it recurs). */
const inclusive = new Map<string, number>();
const callers = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index] ?? 0;
  const { callFrame } = byId.get(id)!;
  if (callFrame.functionName === '(idle)') return;
  const where = owner(callFrame);
  const name = `${callFrame.functionName || '(anonymous)'}  ${where}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  const group = where.startsWith('gateway/') ? where.split('/').slice(0, 3).join('/') : where.split('/')[0]!;
  const pkg = where.startsWith('@') ? where : group;
  byOwner.set(pkg, (byOwner.get(pkg) ?? 0) + micros);
  total += micros;
  const onStack = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    onStack.add(`${frame.functionName || '(anonymous)'}  ${owner(frame)}:${frame.lineNumber + 1}`);
  }
  for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + micros);
  if (values.callers && callFrame.functionName.includes(values.callers)) {
    const path: string[] = [];
    for (
      let at = parentOf.get(id);
      at !== undefined && path.length < Number(process.env.DEPTH ?? 3);
      at = parentOf.get(at)
    ) {
      const frame = byId.get(at)!.callFrame;
      path.push(`${frame.functionName || '(anonymous)'} ${owner(frame)}:${frame.lineNumber + 1}`);
    }
    const key = `${callFrame.functionName} <- ${path.join(' <- ')}`;
    callers.set(key, (callers.get(key) ?? 0) + micros);
  }
});

const print = (title: string, table: Map<string, number>) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    );
  }
};
print('Self time by function', byFunction);
print('Self time by package or folder', byOwner);
print('Total time (self and callees) by function', inclusive);
if (values.callers) print(`Callers of ${values.callers}`, callers);
