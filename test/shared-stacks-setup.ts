import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the stack project's shared stacks keep their legacy data. */
    sharedStacksDir: string;
  }
}

/**
 * The stack project's folder for its shared stacks' data (`sharedReadOnlyStack`): made before its files run
 * and removed after them, since Vitest stops its workers without running their exit handlers.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'shared-stacks-'));
  project.provide('sharedStacksDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
