import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gatewayNodeFlags } from '../bench/built-gateway.js';
import { readGatewayConfig } from '../gateway/src/config.js';
import { nginxForTests } from './nginx.js';
import { repoRoot } from './processes.js';

/**
 * docker-compose.yml, the Dockerfile and the load balancer's configuration, read as Docker would read them
 * (no Docker engine runs here): which services exist, what they publish, and whether the gateway's
 * variables name the services that really serve them.
 */

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  networks?: string[];
  network_mode?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  restart?: string;
  stop_grace_period?: string;
}

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

interface Compose {
  services: Record<string, ComposeService>;
  networks: Record<string, { internal?: boolean }>;
  volumes: Record<string, unknown>;
}

/**
 * The compose file as Docker Compose reads it with the variables `shell` sets: `${NAME:-default}` is the
 * variable when set and not empty, else the default (the only form the file uses). Merge keys
 * (`<<: *node-service`) are part of the format.
 */
function readCompose(shell: Record<string, string> = {}): Compose {
  const text = read('docker-compose.yml').replace(
    /\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}/g,
    (_, name: string, fallback: string) => shell[name] || fallback,
  );
  expect(text, 'a variable in a form this reading does not know').not.toMatch(/\$\{/);
  const compose = parse(text, { merge: true }) as Compose;
  // `NAME:` with nothing after it (an empty default) leaves the variable unset in the container.
  for (const service of Object.values(compose.services)) {
    if (!service.environment) continue;
    service.environment = Object.fromEntries(
      Object.entries(service.environment).filter(([, value]) => value !== null),
    );
  }
  return compose;
}

const compose = readCompose();
const services = compose.services;
const service = (name: string): ComposeService => {
  expect(services, `docker-compose.yml has no service "${name}"`).toHaveProperty(name);
  return services[name]!;
};
const env = (name: string) => service(name).environment ?? {};

/** `8080:8080` → the published (host) and the container port. */
const portMapping = (mapping: string) => {
  const [published, target] = mapping.split(':').map(Number);
  return { published: published!, target: target! };
};

/** A volume mount `name:/path[:ro]`. */
const mount = (spec: string) => {
  const [source, target, mode] = spec.split(':');
  return { source: source!, target: target!, readOnly: mode === 'ro' };
};

/** Services that run once and exit (the realm builder): their successful exit is what others wait for. */
const oneShot = (name: string) =>
  Object.values(services).some(
    (other) => other.depends_on?.[name]?.condition === 'service_completed_successfully',
  );

describe('docker-compose.yml', () => {
  it('publishes the gateway and Keycloak on GATEWAY_PORT and IDP_PORT, and every public address follows', () => {
    const other = readCompose({ GATEWAY_PORT: '9080', IDP_PORT: '9081' }).services;
    const environment = (name: string) => other[name]!.environment ?? {};
    expect(other['load-balancer']!.ports!.map(portMapping)).toEqual([{ published: 9080, target: 8080 }]);
    expect(other['keycloak']!.ports!.map(portMapping)).toEqual([{ published: 9081, target: 8080 }]);
    const config = readGatewayConfig(environment('gateway'));
    expect(config.publicUrl).toBe('http://localhost:9080');
    expect(config.idp.issuer).toBe('http://localhost:9081/auth/realms/org');
    expect(config.idp.authServerUrl).toBe('http://localhost:9081/auth/');
    expect(environment('keycloak').KC_HOSTNAME).toBe('http://localhost:9081/auth');
    expect(environment('legacy').IDP_ISSUER).toBe('http://localhost:9081/auth/realms/org');
    expect(environment('realm-builder').GATEWAY_PUBLIC_URL).toBe('http://localhost:9080');
    // Inside the compose network nothing moves: the containers listen where they always do.
    expect(environment('gateway').GATEWAY_PORT).toBe('8080');
    expect(config.idp.jwksUrl.host).toBe('keycloak:8080');
  });

  it('runs a pinned Keycloak 26 that imports the realm builder’s file under /auth', () => {
    const keycloak = service('keycloak');
    expect(keycloak.image).toMatch(/^quay\.io\/keycloak\/keycloak:26\.\d+\.\d+$/);
    expect(keycloak.command).toEqual(
      expect.arrayContaining(['--import-realm', '--http-relative-path=/auth']),
    );

    const builder = service('realm-builder');
    expect(builder.command).toEqual(
      expect.arrayContaining(['--import', 'tsx', 'idp/src/realm-builder-cli.ts']),
    );
    const out = builder.command![builder.command!.indexOf('--out') + 1]!;
    const builderVolume = builder.volumes!.map(mount).find((volume) => out.startsWith(`${volume.target}/`));
    expect(builderVolume, `the realm builder writes ${out} outside its volumes`).toBeDefined();
    expect(keycloak.volumes!.map(mount)).toContainEqual({
      source: builderVolume!.source,
      target: '/opt/keycloak/data/import',
      readOnly: true,
    });
    expect(keycloak.depends_on?.['realm-builder']?.condition).toBe('service_completed_successfully');
    // The realm's redirect URIs and roles must match the gateway the users reach.
    expect(env('realm-builder').GATEWAY_PUBLIC_URL).toBe(env('gateway').GATEWAY_PUBLIC_URL);
    expect(env('realm-builder').IDP_RBAC_ENABLED).toBe(env('gateway').IDP_RBAC_ENABLED);
  });

  it('pins every image it does not build', () => {
    for (const [name, entry] of Object.entries(services)) {
      expect(entry.image, `${name} has no image`).toBeDefined();
      if (entry.build === undefined) expect(entry.image, name).toMatch(/:(?!latest$)[\w.-]+$/);
    }
  });

  it('keeps the legacy service on an internal network, unpublished', () => {
    const legacy = service('legacy');
    expect(legacy.ports).toBeUndefined();
    expect(legacy.networks).toBeDefined();
    for (const network of legacy.networks!) expect(compose.networks[network]?.internal).toBe(true);
    expect(service('keycloak').networks).not.toEqual(expect.arrayContaining(legacy.networks!));
  });

  it('gives the gateways one Postgres for their own state, reachable by them alone and waited for', () => {
    const postgres = service('postgres');
    expect(postgres.ports).toBeUndefined();
    for (const network of postgres.networks!) {
      expect(compose.networks[network]?.internal).toBe(true);
      for (const [name, other] of Object.entries(services)) {
        if (other.networks?.includes(network)) expect(['postgres', 'gateway'], name).toContain(name);
      }
    }
    const url = new URL(String(env('gateway').DATABASE_URL));
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(`${url.username}/${url.pathname.slice(1)}`).toBe(
      `${String(env('postgres').POSTGRES_USER)}/${String(env('postgres').POSTGRES_DB)}`,
    );
    expect(service('gateway').depends_on?.postgres?.condition).toBe('service_healthy');
    expect(postgres.volumes?.map((volume) => mount(volume).target)).toEqual(['/var/lib/postgresql/data']);
  });

  it('runs at least two gateway replicas, unpublished, behind the load balancer', () => {
    const gateway = service('gateway');
    expect(gateway.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(gateway.ports).toBeUndefined();

    const balancer = service('load-balancer');
    expect(balancer.image).toMatch(/^nginx:/);
    const config = balancer.volumes!.map(mount).find((volume) => volume.target === '/etc/nginx/nginx.conf');
    expect(config?.source).toBe('./deploy/nginx.conf');
    const nginxConf = read('deploy/nginx.conf');
    expect(nginxConf).toContain(`server gateway:${env('gateway').GATEWAY_PORT}`);
    expect(nginxConf).toMatch(/proxy_pass http:\/\/gateways;/);
    const listen = Number(/listen (\d+);/.exec(nginxConf)?.[1]);
    expect(balancer.ports!.map(portMapping)).toContainEqual({
      published: Number(new URL(env('gateway').GATEWAY_PUBLIC_URL!).port),
      target: listen,
    });
    expect(balancer.depends_on?.gateway?.condition).toBe('service_healthy');
  });

  it('gives every long-running service a health check, and waits on it', () => {
    for (const [name, entry] of Object.entries(services)) {
      if (oneShot(name)) {
        expect(entry.restart, `${name} runs once`).toBe('no');
        continue;
      }
      expect(entry.healthcheck?.test, `${name} has no healthcheck`).toBeDefined();
      for (const [dependency, { condition }] of Object.entries(entry.depends_on ?? {})) {
        expect(condition, `${name} → ${dependency}`).toBe(
          oneShot(dependency) ? 'service_completed_successfully' : 'service_healthy',
        );
      }
    }
    expect(service('gateway').healthcheck!.test.join(' ')).toContain('/health/ready');
    expect(service('legacy').healthcheck!.test.join(' ')).toContain(`:${env('legacy').LEGACY_PORT}/health`);
  });

  it('wires the gateway to the services by their compose names, with a valid configuration', () => {
    const gatewayEnv = env('gateway');
    // The gateway's own validation accepts the whole environment.
    const config = readGatewayConfig(gatewayEnv);
    expect(config.host).toBe('0.0.0.0');

    expect(config.legacy.url.hostname).toBe('legacy');
    expect(config.legacy.url.port).toBe(env('legacy').LEGACY_PORT);
    expect(env('legacy').LEGACY_HOST).toBe('0.0.0.0');

    // Keys over the compose network; issuer and browser login at Keycloak's public address.
    expect(config.idp.jwksUrl.host).toBe('keycloak:8080');
    expect(config.idp.jwksUrl.pathname).toBe('/auth/realms/org/protocol/openid-connect/certs');
    const keycloakPublic = env('keycloak').KC_HOSTNAME!;
    expect(config.idp.issuer).toBe(`${keycloakPublic}/realms/${config.idp.realm}`);
    expect(config.idp.authServerUrl).toBe(`${keycloakPublic}/`);
    expect(service('keycloak').ports!.map(portMapping)).toContainEqual({
      published: Number(new URL(keycloakPublic).port),
      target: 8080,
    });
    expect(gatewayEnv.IDP_RBAC_ENABLED).toBe('true');
    const shared = (a: string, b: string) =>
      service(a).networks!.filter((network) => service(b).networks!.includes(network));
    expect(shared('gateway', 'legacy')).not.toEqual([]);
    expect(shared('gateway', 'keycloak')).not.toEqual([]);
    // The legacy service checks the same tokens the gateway relays to it, with Keycloak's keys.
    expect(shared('legacy', 'keycloak')).not.toEqual([]);
    expect(env('legacy').LEGACY_AUTH).toBe('on');
    expect(env('legacy').IDP_ISSUER).toBe(gatewayEnv.IDP_ISSUER);
    expect(env('legacy').IDP_JWKS_URL).toBe(gatewayEnv.IDP_JWKS_URL);
    expect(gatewayEnv.LEGACY_CREDENTIALS).toBe('relay');
  });

  it('gives a stopping replica more time than its shutdown grace', () => {
    const grace = Number(env('gateway').SHUTDOWN_GRACE_MS);
    const stop = /^(\d+)s$/.exec(service('gateway').stop_grace_period ?? '')?.[1];
    expect(Number(stop) * 1000).toBeGreaterThan(grace);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const dockerignore = read('.dockerignore').split('\n');

  it('installs from the lock file in one stage and runs unprivileged in another', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:20\.\d+\.\d+-/);
    expect(dockerfile).toMatch(/RUN npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^COPY docs docs$/m);
    // The contract's operations are compiled into the gateway: nothing reads openapi/ at run time.
    expect(dockerfile).not.toMatch(/^COPY openapi/m);
    // The gateway runs built (`npm run build` in its own stage, node alone); tsx runs the other sources,
    // so it must be a production dependency.
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/gateway\/dist gateway\/dist$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node"\]$/m);
    // The gateway's node flags are the benchmark's (bench/built-gateway.ts), in the image and in compose alike.
    const command = [...gatewayNodeFlags, 'gateway/dist/main.js'];
    expect(dockerfile).toContain(`CMD [${command.map((part) => `"${part}"`).join(', ')}]`);
    expect(service('gateway').command).toEqual(command);
    const gatewayPackage = JSON.parse(read('gateway/package.json')) as {
      dependencies: Record<string, string>;
    };
    expect(gatewayPackage.dependencies).toHaveProperty('tsx');
  });

  it('keeps local state, keys and dependencies out of the build context', () => {
    for (const entry of ['**/node_modules', '.git', 'data', 'idp/generated', '.env']) {
      expect(dockerignore).toContain(entry);
    }
  });

  it('names entry points that exist: TypeScript run with tsx, or the built gateway', () => {
    for (const [name, entry] of Object.entries(services)) {
      if (entry.build === undefined) continue;
      const script = entry.command?.find((argument) => /\.(ts|js)$/.test(argument));
      if (script?.endsWith('.ts')) {
        expect(entry.command?.slice(0, 2), name).toEqual(['--import', 'tsx']);
      } else {
        // Built in the image from the TypeScript source of the same name.
        expect(script, name).toBe('gateway/dist/main.js');
      }
      const source = script!.replace(/^gateway\/dist\/(.*)\.js$/, 'gateway/src/$1.ts');
      expect(() => accessSync(join(repoRoot, source), constants.R_OK), `${name}: ${source}`).not.toThrow();
    }
  });
});

const nginx = nginxForTests('test/deployment.test.ts');

describe.skipIf(nginx.skip)('deploy/nginx.conf', () => {
  it('is a configuration nginx accepts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-nginx-conf-'));
    try {
      // `gateway` only resolves on the compose network.
      await writeFile(
        join(dir, 'nginx.conf'),
        read('deploy/nginx.conf').replace(/gateway:(\d+)/, '127.0.0.1:$1'),
      );
      // The configuration logs to /dev/stdout and /dev/stderr, which nginx opens: give it files, not pipes.
      const output = openSync(join(dir, 'output.txt'), 'w');
      const result = spawnSync(
        nginx.path(),
        ['-t', '-p', dir, '-c', 'nginx.conf', '-e', join(dir, 'error.log'), '-g', `pid ${dir}/nginx.pid;`],
        { stdio: ['ignore', output, output], timeout: 10_000 },
      );
      closeSync(output);
      expect(result.status, readFileSync(join(dir, 'output.txt'), 'utf8')).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
