import type { GraphQLParams, Plugin, YogaServer } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';
import type { ServerContext } from './server-context.js';

type Yoga = YogaServer<ServerContext, GraphQLContext>;
type OnResultProcess = NonNullable<Plugin<object, ServerContext>['onResultProcess']>;
type ResultProcessPayload = Parameters<OnResultProcess>[0];
type ResultProcessor = Parameters<ResultProcessPayload['setResultProcessor']>[0];
type ResultProcessorInput = ResultProcessPayload['result'];

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

  /** Register it on the Yoga server it answers for: Yoga hands it the server (not its adapter) at start. */
  readonly plugin: Plugin<object, ServerContext> = {
    onYogaInit: ({ yoga }) => {
      this.yoga = yoga as Yoga;
      // Every plugin's result hook, in plugin order, as Yoga collects them; Yoga's adapter hides this list.
      const plugins = this.yoga.getEnveloped._plugins as (Plugin<object, ServerContext> | undefined)[];
      this.resultHooks = plugins.flatMap((plugin) =>
        plugin?.onResultProcess ? [plugin.onResultProcess] : [],
      );
    },
  };

  async answer(request: Request, params: GraphQLParams, serverContext: ServerContext): Promise<Response> {
    const yoga = this.yoga;
    if (!yoga) throw new Error('ParamsExchange.plugin is not registered on a Yoga server.');
    // Yoga adds `request` and `params` to this object and builds the GraphQL context from it.
    const context = { ...serverContext, waitUntil: noWait };
    const result = await yoga.getResultForParams({ params, request }, context);
    return this.processResult(yoga, request, result as ResultProcessorInput, context);
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

/** No plugin of ours defers work past the answer; Yoga's adapter would only wait for it at dispose. */
function noWait(promise: Promise<unknown> | void): void {
  void promise;
}
