import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import { startMeshServer } from '../test/mesh-server.js';
import type { StartedProcess } from '../test/processes.js';

/** Mesh's own server on the same `.meshrc.yaml`, built if needed: the benchmark's peer. */
export async function startMeshPeer(legacyUrl: string) {
  await ensureMeshBuild();
  const server = await startMeshServer(legacyUrl);
  const process: StartedProcess = {
    child: server.child,
    url: server.url,
    output: () => '',
    stop: () => server.stop(),
  };
  return {
    process,
    url: server.url,
    path: '/graphql',
    body: (uuids: readonly string[]) =>
      JSON.stringify({
        query: referenceQueryOneLine,
        variables: { uuids },
      }),
  };
}
