import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRealm } from './realm-builder.js';
import { DEFAULT_REALM_FILE, realmBuilderOptionsFromEnv, type Environment } from './realm-env.js';

export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `Usage: npm run realm -- [--out FILE | --out -]

Writes the Keycloak realm import file for the realm "org" (default ${relative(process.cwd(), DEFAULT_REALM_FILE)}).
Reads IDP_REALM_USERS (JSON list; default idp/dev-realm-users.json), IDP_RBAC_ENABLED (true|false, default false),
IDP_INTEGRATION_CLIENT_SECRET (default "integration-dev-secret"), IDP_PAYROLL_CLIENT_SECRET (default "payroll-dev-secret"), IDP_DEV_TOOLS_CLIENT_SECRET (default "dev-tools-dev-secret") and GATEWAY_PUBLIC_URL (default http://localhost:8080).
`;

/** `npm run realm`: returns the process exit code. */
export async function runRealmBuilder(
  argv: string[],
  env: Environment,
  output: CommandOutput,
): Promise<number> {
  let out: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      output.stdout(USAGE);
      return 0;
    }
    out = values.out ?? DEFAULT_REALM_FILE;
  } catch (error) {
    output.stderr(`${message(error)}\n\n${USAGE}`);
    return 1;
  }

  try {
    const options = realmBuilderOptionsFromEnv(env);
    const realm = buildRealm(options);
    const text = `${JSON.stringify(realm, null, 2)}\n`;
    if (out === '-') {
      output.stdout(text);
    } else {
      await mkdir(dirname(out), { recursive: true });
      // The file holds passwords and the client secret.
      await writeFile(out, text, { mode: 0o600 });
      output.stderr(
        `Wrote ${relative(process.cwd(), out) || out}: realm "${realm.realm}", ${options.users.length} users, RBAC ${options.rbacEnabled ? 'on' : 'off'}.\n`,
      );
    }
    const droppedRoles = options.users.filter((user) => user.roles.length > 0);
    if (!options.rbacEnabled && droppedRoles.length > 0) {
      output.stderr(
        `Note: IDP_RBAC_ENABLED is not "true", so the realm has no roles and the roles of ${droppedRoles.map((user) => user.username).join(', ')} are left out.\n`,
      );
    }
    return 0;
  } catch (error) {
    output.stderr(`${message(error)}\n`);
    return 1;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
