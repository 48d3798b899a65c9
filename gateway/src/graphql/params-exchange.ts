import { GraphQLError, type ExecutionResult } from 'graphql';
import { maskError, type GraphQLParams, type Plugin, type YogaServer } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';
import type { ServerContext } from './server-context.js';

type Yoga = YogaServer<ServerContext, GraphQLContext>;
type OnResultProcess = NonNullable<Plugin<object, ServerContext>['onResultProcess']>;
type ResultProcessPayload = Parameters<OnResultProcess>[0];
type ResultProcessor = Parameters<ResultProcessPayload['setResultProcessor']>[0];
type ResultProcessorInput = ResultProcessPayload['result'];

/** The hooks of Yoga's HTTP layer the exchange does not run: a plugin with one must go through `server.fetch`. */
const skippedHooks = ['onRequest', 'onRequestParse', 'onResponse', 'instrumentation'] as const;

/** The first hook of `plugin` that the exchange would skip, if any. */
function skippedHook(plugin: unknown): string | undefined {
  if (typeof plugin !== 'object' || plugin === null) return undefined;
  return skippedHooks.find((name) => name in plugin);
}

const skipsMessage = (which: string, hook: string) =>
  `${which} has ${hook}, which the GraphQL JSON exchange skips: answer its requests with server.fetch instead.`;

/**
 * Refuses, at start, plugins with a hook the exchange would skip: the server would answer differently on the
 * two roads. Yoga's own plugins are not in the list passed here: the exchange takes only requests their
 * HTTP hooks would pass unchanged (`plainJsonParams`).
 */
export function assertExchangeCovers(plugins: readonly unknown[]): void {
  plugins.forEach((plugin, index) => {
    const hook = skippedHook(plugin);
    if (hook !== undefined) throw new Error(skipsMessage(`Plugin ${index}`, hook));
  });
}

type PluginInit = NonNullable<Plugin['onPluginInit']>;

/**
 * `plugin` with the plugins it adds at start (envelop's `addPlugin`, as GraphQL Armor does) held to the same
 * rule: an added plugin with a hook the exchange skips fails the server's start, and what it adds in turn is
 * watched the same way.
 */
function watchAdditions<P>(plugin: P, which: string): P {
  if (typeof plugin !== 'object' || plugin === null || !('onPluginInit' in plugin)) return plugin;
  const init = plugin.onPluginInit as PluginInit;
  const onPluginInit: PluginInit = (payload) =>
    init.call(plugin, {
      ...payload,
      addPlugin(added) {
        const by = `A plugin added by ${which}`;
        const hook = skippedHook(added);
        if (hook !== undefined) throw new Error(skipsMessage(by, hook));
        payload.addPlugin(watchAdditions(added, by.replace(/^A plugin/, 'a plugin')));
      },
    });
  return { ...plugin, onPluginInit };
}

/**
 * A version server's plugins as the exchange can serve them: each given one is checked now
 * (`assertExchangeCovers`), and each one it adds at start when it adds it. `exempt` plugins are neither: a
 * hook of theirs that the exchange skips must only act on requests the exchange leaves to Yoga's road.
 *
 * @example
 * createYoga({ schema, plugins: coveredByExchange([exchange.plugin, useHardening(…), …]) });
 */
export function coveredByExchange<P>(plugins: readonly P[], exempt: readonly P[] = []): P[] {
  assertExchangeCovers(plugins.filter((plugin) => !exempt.includes(plugin)));
  return plugins.map((plugin, index) =>
    exempt.includes(plugin) ? plugin : watchAdditions(plugin, `plugin ${index}`),
  );
}

/**
 * Answers GraphQL parameters the route has already read (`plainJsonParams`) through a version's Yoga server
 * without its HTTP layer: every envelop plugin and every `onParams`, `onExecutionResult` and
 * `onResultProcess` hook runs as in `server.fetch`; only the request parsing (a stream of the body, an
 * `AbortController`, the server adapter's wrappers) is skipped.
 *
 * @example
 * const exchange = new ParamsExchange();
 * const server = createYoga({ schema, plugins: [exchange.plugin, …] });
 * await exchange.answer(request, { query: '{ __typename }' }, { principal });
 */
export class ParamsExchange {
  private yoga: Yoga | undefined;
  private resultHooks: OnResultProcess[] = [];

  /** Every plugin of the server, as envelop hands it to each plugin at start (the list Yoga runs). */
  private plugins: readonly (Plugin<object, ServerContext> | undefined)[] = [];

  /** Register it on the Yoga server it answers for: Yoga hands it the server (not its adapter) at start. */
  readonly plugin: Plugin<object, ServerContext> = {
    onPluginInit: ({ plugins }) => {
      this.plugins = plugins as (Plugin<object, ServerContext> | undefined)[];
    },
    onYogaInit: ({ yoga }) => {
      this.yoga = yoga as Yoga;
      // Every plugin's result hook, in plugin order, as Yoga collects them.
      this.resultHooks = this.plugins.flatMap((plugin) =>
        plugin?.onResultProcess ? [plugin.onResultProcess] : [],
      );
    },
  };

  async answer(request: Request, params: GraphQLParams, serverContext: ServerContext): Promise<Response> {
    const yoga = this.yoga;
    if (!yoga) throw new Error('ParamsExchange.plugin is not registered on a Yoga server.');
    // Yoga adds `request` and `params` to this object and builds the GraphQL context from it.
    const context = { ...serverContext, waitUntil: noWait };
    try {
      const result = await yoga.getResultForParams({ params, request }, context);
      return await this.processResult(yoga, request, result as ResultProcessorInput, context);
    } catch (error) {
      // As Yoga's own road does: a failure before or while writing the answer is answered as a result.
      const result = { errors: handledErrors(yoga, error) } satisfies ExecutionResult;
      return this.processResult(yoga, request, result, context);
    }
  }

  /**
   * Yoga's `processResult`: the result hooks choose how the answer is written from the request's `Accept`
   * (the observer records the operation there too), and Yoga's processor for that media type writes it;
   * none that fits is 406, as Yoga says it.
   */
  private async processResult(
    yoga: Yoga,
    request: Request,
    result: ResultProcessorInput,
    serverContext: ResultProcessPayload['serverContext'],
  ): Promise<Response> {
    let resultProcessor: ResultProcessor | undefined;
    let acceptedMediaType = '*/*';
    const acceptableMediaTypes: string[] = [];
    for (const hook of this.resultHooks) {
      await hook({
        request,
        acceptableMediaTypes,
        result,
        setResult(newResult) {
          result = newResult;
        },
        resultProcessor,
        setResultProcessor(processor, mediaType) {
          resultProcessor = processor;
          acceptedMediaType = mediaType;
        },
        serverContext,
      });
    }
    if (!resultProcessor) {
      return new yoga.fetchAPI.Response(null, {
        status: 406,
        statusText: 'Not Acceptable',
        headers: { accept: acceptableMediaTypes.join('; charset=utf-8, ') },
      });
    }
    return resultProcessor(result, yoga.fetchAPI, acceptedMediaType);
  }
}

/** What Yoga's `isAggregateError` takes for one: any object with `errors`. */
function isAggregate(error: unknown): error is { errors: Iterable<unknown> } {
  return typeof error === 'object' && error !== null && 'errors' in error;
}

/** What Yoga's `isAbortError` takes for the client going away: it answers no error for it. */
function isAbort(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * Yoga's `handleError` (not exported) with the server's masking on (`maskedErrors: true`): each error of an
 * aggregate on its own, an abort as none, the rest masked (and logged when masked) unless it is our own
 * GraphQLError.
 */
function handledErrors(yoga: Yoga, error: unknown): GraphQLError[] {
  if (isAggregate(error)) return [...error.errors].flatMap((inner) => handledErrors(yoga, inner));
  if (isAbort(error)) return [];
  const masked = maskError(error, 'Unexpected error.');
  if (masked !== error) yoga.logger.error(error);
  return [masked instanceof GraphQLError ? masked : new GraphQLError((masked as Error).message)];
}

/** No plugin of ours defers work past the answer; Yoga's adapter would only wait for it at dispose. */
function noWait(promise: Promise<unknown> | void): void {
  void promise;
}
