import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { idpServerConfigFromEnv } from './config.js';
import { loadRealm, type Realm } from './realm.js';
import { buildRealm } from './realm-builder.js';
import { DEFAULT_REALM_FILE, realmBuilderOptionsFromEnv } from './realm-env.js';
import { startIdp } from './server.js';

async function main(): Promise<void> {
  const config = idpServerConfigFromEnv(process.env);
  const { realm, source } = await readRealm(config.realmFile);
  let idp;
  try {
    idp = await startIdp({
      realm,
      port: config.port,
      host: config.host,
      ...(config.keysDir === undefined ? {} : { keysDir: config.keysDir }),
      keyActivationDelaySeconds: config.keyActivationDelaySeconds,
      devEndpoints: config.devEndpoints,
      ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `IDP_PORT ${config.port} is already in use on ${config.host}; set IDP_PORT to a free port`,
      );
    }
    throw error;
  }

  const users = realm.users
    .filter((user) => user.serviceAccountClientId === undefined)
    .map((user) =>
      user.realmRoles.length > 0 ? `${user.username} (${user.realmRoles.join(', ')})` : user.username,
    );
  console.log(`Development identity provider (Keycloak-shaped) on ${idp.url}
  listening on  ${config.host}:${idp.port}
  issuer        ${idp.issuer}
  discovery     ${idp.issuer}/.well-known/openid-configuration
  realm         ${source}; RBAC ${realm.roles.size > 0 ? 'on' : 'off'}
  users         ${users.join(', ')}
  clients       ${realm.clients.map((client) => client.clientId).join(', ')}
  keys          ${config.keysDir === undefined ? 'in memory (IDP_PORT=0)' : relative(process.cwd(), config.keysDir) || '.'}
  token         npm run token -- alice --idp ${idp.url}`);
  if (config.devEndpoints) {
    console.log(
      `  dev only      POST ${idp.issuer}/dev/rotate-keys publishes a new key that signs ${config.keyActivationDelaySeconds} s later`,
    );
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing the identity provider`);
    idp.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

async function readRealm(realmFile: string | undefined): Promise<{ realm: Realm; source: string }> {
  if (realmFile !== undefined) {
    let text: string;
    try {
      text = await readFile(realmFile, 'utf8');
    } catch (error) {
      throw new Error(`IDP_REALM_FILE ${realmFile} cannot be read: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`IDP_REALM_FILE ${realmFile} is not valid JSON: ${(error as Error).message}`);
    }
    try {
      return { realm: loadRealm(json), source: realmFile };
    } catch (error) {
      throw new Error(`IDP_REALM_FILE ${realmFile}: ${(error as Error).message}`);
    }
  }
  // No realm file: build it from the realm builder's variables, and leave a copy for a real Keycloak.
  const json = buildRealm(realmBuilderOptionsFromEnv(process.env));
  await mkdir(dirname(DEFAULT_REALM_FILE), { recursive: true });
  await writeFile(DEFAULT_REALM_FILE, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600 });
  return {
    realm: loadRealm(json),
    source: `built from the environment, written to ${relative(process.cwd(), DEFAULT_REALM_FILE)}`,
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
