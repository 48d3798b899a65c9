// What the vendor bundles the browser pages load (browser-assets.ts) define on window, as the pages use it.
interface Window {
  /** Monaco's worker lookup, which GraphiQL's editor reads before it starts. */
  MonacoEnvironment?: { globalAPI: boolean; getWorkerUrl: (moduleId: string, label: string) => string };
  /** graphiql/graphiql.js (Yoga's GraphiQL). */
  YogaGraphiQL: {
    renderYogaGraphiQL: (element: HTMLElement, options: Record<string, unknown>) => void;
  };
  /** graphql-voyager/voyager.standalone.js. */
  GraphQLVoyager: {
    renderVoyager: (element: HTMLElement, options: Record<string, unknown>) => void;
    voyagerIntrospectionQuery: string;
  };
}
