import { describe, expect, it } from 'vitest';
import { runCompareCommand } from './compare-command.js';
import { gatewayUrlFromEnv, idpUrlFromEnv, StackAddressError } from './stack-addresses.js';

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';

/** Runs the command with a fetch that records every URL: the token grant answers, the gateway is down. */
async function addressesUsed(env: Record<string, string>, argv: string[] = []) {
  const urls: string[] = [];
  let stderr = '';
  const code = await runCompareCommand(
    ['--units', unit, ...argv],
    env,
    { stdout: () => undefined, stderr: (text) => (stderr += text) },
    {
      fetch: (request: Request) => {
        urls.push(request.url);
        if (request.url.includes('/protocol/openid-connect/token')) {
          return Response.json({ access_token: 'a.b.c', token_type: 'Bearer' });
        }
        return Promise.reject(new TypeError('fetch failed'));
      },
    },
  );
  return { code, urls, stderr };
}

describe('npm run compare finds the stack on the ports npm start used', () => {
  it('follows GATEWAY_PORT and IDP_PORT, as npm start and npm run token do', async () => {
    const { code, urls } = await addressesUsed({ GATEWAY_PORT: '18080', IDP_PORT: '18081' });
    expect(code).toBe(2);
    expect(urls[0]).toBe('http://localhost:18081/auth/realms/org/protocol/openid-connect/token');
    expect(urls[1]).toMatch(/^http:\/\/localhost:18080\/service\//);
  });

  it('prefers the URLs, then the public URLs, then the ports, and --gateway over all', async () => {
    expect(gatewayUrlFromEnv({})).toBe('http://localhost:8080');
    expect(gatewayUrlFromEnv({ GATEWAY_PORT: '9000' })).toBe('http://localhost:9000');
    expect(gatewayUrlFromEnv({ GATEWAY_PORT: '9000', GATEWAY_PUBLIC_URL: 'https://gw.example.org/' })).toBe(
      'https://gw.example.org',
    );
    expect(
      gatewayUrlFromEnv({
        GATEWAY_PORT: '9000',
        GATEWAY_PUBLIC_URL: 'https://gw.example.org',
        GATEWAY_URL: 'http://a:1',
      }),
    ).toBe('http://a:1');
    expect(idpUrlFromEnv({})).toBe('http://localhost:8081');
    expect(idpUrlFromEnv({ IDP_PORT: '9001' })).toBe('http://localhost:9001');
    expect(idpUrlFromEnv({ IDP_PORT: '9001', IDP_PUBLIC_URL: 'https://login.example.org' })).toBe(
      'https://login.example.org',
    );
    expect(idpUrlFromEnv({ IDP_PUBLIC_URL: 'https://login.example.org', IDP_URL: 'http://b:2' })).toBe(
      'http://b:2',
    );

    const { urls } = await addressesUsed({ GATEWAY_PORT: '18080' }, ['--gateway', 'http://127.0.0.1:7000']);
    expect(urls[1]).toMatch(/^http:\/\/127\.0\.0\.1:7000\//);
  });

  it('names the variable that is wrong', async () => {
    expect(() => gatewayUrlFromEnv({ GATEWAY_PORT: 'eighty' })).toThrow(StackAddressError);
    const gateway = await addressesUsed({ GATEWAY_PORT: 'eighty' });
    expect(gateway.code).toBe(2);
    expect(gateway.stderr).toBe('GATEWAY_PORT must be a port number from 1 to 65535, got "eighty".\n');
    const idp = await addressesUsed({ IDP_PORT: '70000' });
    expect(idp.code).toBe(2);
    expect(idp.stderr).toContain('IDP_PORT must be a port number from 1 to 65535, got "70000".');
  });
});

describe('npm run compare without a token option, after /service is switched off', () => {
  /** The command against a gateway that refuses every /service read with OS2mo's 410, as after a switch-off. */
  async function afterSwitchOff(argv: string[]) {
    const grants: URLSearchParams[] = [];
    const authorizations: (string | null)[] = [];
    let stderr = '';
    const code = await runCompareCommand(
      [...argv, '--gateway', 'http://gateway.test'],
      { IDP_URL: 'http://idp.test' },
      { stdout: () => undefined, stderr: (text) => (stderr += text) },
      {
        fetch: async (request: Request) => {
          if (request.url.includes('/protocol/openid-connect/token')) {
            grants.push(new URLSearchParams(await request.text()));
            authorizations.push(request.headers.get('authorization'));
            return Response.json({ access_token: 'a.b.c', token_type: 'Bearer' });
          }
          return Response.json(
            { error: true, status: 410, error_key: 'E_GONE', description: 'This endpoint has been retired.' },
            { status: 410 },
          );
        },
      },
    );
    return { code, stderr, grants, authorizations };
  }

  it('reads as the development tool client, dev-tools, the one npm start names in USAGE_TOOL_CLIENTS', async () => {
    const { grants, authorizations, stderr } = await afterSwitchOff(['--units', unit]);
    expect(grants[0]!.get('grant_type')).toBe('client_credentials');
    expect(authorizations[0]).toBe(
      `Basic ${Buffer.from('dev-tools:dev-tools-dev-secret').toString('base64')}`,
    );
    expect(stderr).toContain('No token given: reading as the development tool client "dev-tools"');
  });

  it("takes each development client's own secret, or its variable's", async () => {
    const payroll = await afterSwitchOff(['--units', unit, '--client', 'payroll']);
    expect(payroll.authorizations[0]).toBe(
      `Basic ${Buffer.from('payroll:payroll-dev-secret').toString('base64')}`,
    );
    const run = await runCompareCommand(
      ['--units', unit, '--gateway', 'http://gateway.test'],
      { IDP_URL: 'http://idp.test', IDP_DEV_TOOLS_CLIENT_SECRET: 's3cret' },
      { stdout: () => undefined, stderr: () => undefined },
      {
        fetch: (request: Request) => {
          expect(request.headers.get('authorization')).toBe(
            `Basic ${Buffer.from('dev-tools:s3cret').toString('base64')}`,
          );
          return Response.json({ error: 'invalid_client' }, { status: 401 });
        },
      },
    );
    expect(run).toBe(2);
  });

  it('says what to set when the gateway answers 410, for --units and --coverage alike', async () => {
    for (const argv of [['--units', unit], ['--coverage']]) {
      const { code, stderr } = await afterSwitchOff(argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toMatch(/answered 410: This endpoint has been retired/);
      expect(stderr).toContain('this run read as the client "dev-tools"');
      expect(stderr).toContain('set USAGE_TOOL_CLIENTS=dev-tools on the gateway (npm start does');
    }
    const asUser = await afterSwitchOff(['--units', unit, '--user', 'alice']);
    expect(asUser.stderr).toContain('this run read as a user or a given token');
    expect(asUser.stderr).toContain(
      'Leave out --token, --user and --client to read as the development tool client',
    );
    const asIntegration = await afterSwitchOff(['--units', unit, '--client', 'integration']);
    expect(asIntegration.stderr).toContain('this run read as the client "integration"');
  });
});
