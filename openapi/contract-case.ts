import type { TestLegacy } from '../legacy-service/src/testing.js';
import type { Shape } from './response-shape.js';

/** One real request against the legacy service and the answer the document must describe. */
export interface ContractCase {
  /** What the request shows, for the test name. */
  name: string;
  /** Values for the documented path's `{parameters}`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Query parameters given more than once (`?uuid=a&uuid=b`). */
  repeatedQuery?: Record<string, string[]>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as-is instead of `body`: bodies that are not JSON or are too large. */
  rawBody?: string;
  /** Sent as an `application/x-www-form-urlencoded` form instead of `body` (2.4.0's login). */
  form?: Record<string, string>;
  status: number;
  /** The `error_key` an error answer must carry. */
  errorKey?: string;
  /** Writes the request depends on; a case with a setup gets an app of its own. */
  setup?: (legacy: TestLegacy) => Promise<void>;
  /** The answer is an empty listing on purpose; otherwise a successful listing must have items. */
  empty?: boolean;
  /** Where OS2mo 2.4.0 states this answer: `backend/tests/<file>::<class>::<test>` (or the source that decides it). */
  os2mo?: string;
  /** The answer's key sets and nesting, as OS2mo's expectation has them (values are not compared). */
  shape?: Shape;
  /** Further checks of the answer's body; each returned sentence is a difference. */
  verify?: (body: unknown) => string[];
  /** What must hold afterwards, read through the app with the test user's token (e.g. nothing written). */
  after?: (legacy: TestLegacy) => Promise<string[]>;
  /** Send no token (null), or this one, instead of the test user's. */
  token?: string | null;
}
