import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { createTracing } from './tracing.js';

const sdkLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((path) =>
    path.includes('@opentelemetry/sdk-trace-base'),
  );

it("loads OpenTelemetry's SDK only once tracing has an endpoint", async () => {
  expect(createTracing({ endpoint: undefined, serviceName: 'org-gateway' })).toBeUndefined();
  expect(sdkLoaded()).toBe(false);
  const tracing = createTracing({ endpoint: new URL('http://127.0.0.1:9/'), serviceName: 'org-gateway' });
  expect(sdkLoaded()).toBe(true);
  await tracing!.shutdown();
});
