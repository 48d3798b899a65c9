import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from '../config.js';
import { durationText, readUsageConfig } from './usage-config.js';

describe('usage configuration', () => {
  it('names the realm clients and looks back 90 days by default, from this replica', () => {
    expect(readGatewayConfig({}).usage).toEqual({
      clients: ['org-frontend', 'integration', 'payroll', 'dev-tools'],
      toolClients: [],
      prometheusUrl: undefined,
      windowSeconds: 90 * 86_400,
    });
    expect(readUsageConfig({}, 'any').clients).toEqual([]);
  });

  it('reads the clients, the Prometheus server and the window', () => {
    const usage = readUsageConfig(
      {
        USAGE_CLIENTS: 'payroll, org-frontend',
        USAGE_PROMETHEUS_URL: 'http://prometheus:9090',
        USAGE_WINDOW: '12w',
      },
      ['org-frontend'],
    );
    expect(usage.clients).toEqual(['payroll', 'org-frontend']);
    expect(usage.prometheusUrl?.href).toBe('http://prometheus:9090/');
    expect(usage.windowSeconds).toBe(84 * 86_400);
    expect(durationText(usage.windowSeconds)).toBe('12w');
    expect(durationText(90 * 86_400)).toBe('90d');
  });

  it('names the variable of a bad value', () => {
    expect(() => readGatewayConfig({ USAGE_WINDOW: '90 days' })).toThrow(/^USAGE_WINDOW: /);
    expect(() => readGatewayConfig({ USAGE_WINDOW: '10s' })).toThrow(/^USAGE_WINDOW: /);
    expect(() => readGatewayConfig({ USAGE_PROMETHEUS_URL: 'prometheus:9090' })).toThrow(
      /^USAGE_PROMETHEUS_URL: /,
    );
    expect(() => readGatewayConfig({ USAGE_PROMETHEUS_URL: 'ftp://prometheus' })).toThrow(
      /^USAGE_PROMETHEUS_URL: /,
    );
    expect(() => readGatewayConfig({ USAGE_CLIENTS: 'other' })).toThrow(/^USAGE_CLIENTS: /);
  });

  it('believes the tool header only from the clients USAGE_TOOL_CLIENTS names, each one the realm accepts', () => {
    expect(readGatewayConfig({ USAGE_TOOL_CLIENTS: 'dev-tools' }).usage.toolClients).toEqual(['dev-tools']);
    expect(() => readGatewayConfig({ USAGE_TOOL_CLIENTS: 'compare-cli' })).toThrow(
      'USAGE_TOOL_CLIENTS: "compare-cli" is not one of the accepted clients (IDP_ALLOWED_CLIENTS: org-frontend, integration, payroll, dev-tools)',
    );
    expect(readUsageConfig({ USAGE_TOOL_CLIENTS: 'compare-cli' }, 'any').toolClients).toEqual([
      'compare-cli',
    ]);
  });

  it('reads basic or bearer credentials for Prometheus, never showing them when the config is printed', () => {
    const basic = readUsageConfig(
      {
        USAGE_PROMETHEUS_URL: 'https://prometheus.example',
        USAGE_PROMETHEUS_USERNAME: 'gateway',
        USAGE_PROMETHEUS_PASSWORD: 's3cret-pass',
      },
      'any',
    );
    expect(basic.prometheusAuthorization?.()).toBe(
      `Basic ${Buffer.from('gateway:s3cret-pass').toString('base64')}`,
    );
    const bearer = readUsageConfig(
      { USAGE_PROMETHEUS_URL: 'https://prometheus.example', USAGE_PROMETHEUS_TOKEN: 'tok-123' },
      'any',
    );
    expect(bearer.prometheusAuthorization?.()).toBe('Bearer tok-123');
    for (const config of [basic, bearer]) {
      const printed = `${JSON.stringify(config)} ${JSON.stringify(readGatewayConfig({ USAGE_PROMETHEUS_URL: 'https://p.example', USAGE_PROMETHEUS_TOKEN: 'tok-123' }))}`;
      expect(printed).not.toMatch(/s3cret-pass|tok-123|Basic |Bearer /);
    }
  });

  it('fails at start on credentials that cannot work', () => {
    const url = { USAGE_PROMETHEUS_URL: 'https://prometheus.example' };
    expect(() => readUsageConfig({ USAGE_PROMETHEUS_TOKEN: 't' }, 'any')).toThrow(
      /^USAGE_PROMETHEUS_TOKEN: needs USAGE_PROMETHEUS_URL/,
    );
    expect(() => readUsageConfig({ ...url, USAGE_PROMETHEUS_USERNAME: 'gateway' }, 'any')).toThrow(
      /^USAGE_PROMETHEUS_PASSWORD: basic credentials need both/,
    );
    expect(() =>
      readUsageConfig({ ...url, USAGE_PROMETHEUS_TOKEN: 't', USAGE_PROMETHEUS_PASSWORD: 'p' }, 'any'),
    ).toThrow(/^USAGE_PROMETHEUS_TOKEN: cannot be combined/);
    expect(() =>
      readUsageConfig({ USAGE_PROMETHEUS_URL: 'https://user:pass@prometheus.example' }, 'any'),
    ).toThrow(/^USAGE_PROMETHEUS_URL: must not carry credentials/);
  });
});
