-- Per-client rate limits shared by replicas (gateway/src/rate-limits/): rate-limiter-flexible's table for
-- Postgres (its RateLimiterPostgres columns), created here so that no replica creates tables at run time.
CREATE TABLE gateway_rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  -- Milliseconds since the epoch at which the window ends.
  expire bigint
);
