import type pg from 'pg';
import { quoteIdentifier } from './sql-names.js';

/**
 * Creates the table of fleet-wide rate budgets and the function that draws on one. Run by
 * `migrateWorkerSchema` inside its transaction, under its lock.
 *
 * One row per budget name: the levels of its request and token buckets (null until a client with
 * that limit draws on it: a full bucket), when they were last refilled, and until when a 429 paused
 * everyone. Every time is PostgreSQL's `clock_timestamp()`, never a client's clock, so processes
 * on machines with skewed clocks agree; clients are only ever told how long to wait.
 */
export async function migrateRateBudgets(client: pg.ClientBase, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  await client.query(
    `create table if not exists ${s}.rate_budgets (
       name text primary key,
       requests double precision,
       tokens double precision,
       updated_at timestamptz not null default clock_timestamp(),
       paused_until timestamptz)`,
  );
  // Refills both buckets by the time elapsed since the last draw, then takes p_requests and
  // p_tokens if they fit (or always, with p_force: a correction after the fact). Returns the
  // milliseconds to wait before trying again; 0 when taken. A null rate leaves that bucket alone.
  // The row lock makes concurrent draws from any number of processes take turns.
  await client.query(
    `create or replace function ${s}.draw_rate_budget(
       p_name text,
       p_request_rate double precision,
       p_request_cap double precision,
       p_token_rate double precision,
       p_token_cap double precision,
       p_requests double precision,
       p_tokens double precision,
       p_force boolean)
     returns double precision
     language plpgsql
     as $fn$
     declare
       b ${s}.rate_budgets%rowtype;
       at timestamptz;
       elapsed double precision;
       r double precision;
       t double precision;
       wait double precision := 0;
     begin
       insert into ${s}.rate_budgets (name) values (p_name) on conflict (name) do nothing;
       select * into b from ${s}.rate_budgets where name = p_name for update;
       at := clock_timestamp();
       elapsed := greatest(0, extract(epoch from at - b.updated_at)::double precision);
       if p_request_rate is not null then
         r := least(p_request_cap, coalesce(b.requests, p_request_cap) + elapsed * p_request_rate / 60);
         if r < least(p_requests, p_request_cap) then
           wait := greatest(wait, (least(p_requests, p_request_cap) - r) * 60000 / p_request_rate);
         end if;
       end if;
       if p_token_rate is not null then
         t := least(p_token_cap, coalesce(b.tokens, p_token_cap) + elapsed * p_token_rate / 60);
         if t < least(p_tokens, p_token_cap) then
           wait := greatest(wait, (least(p_tokens, p_token_cap) - t) * 60000 / p_token_rate);
         end if;
       end if;
       if b.paused_until is not null and b.paused_until > at then
         wait := greatest(wait, extract(epoch from b.paused_until - at)::double precision * 1000);
       end if;
       if p_force or wait <= 0 then
         r := least(p_request_cap, r - p_requests);
         t := least(p_token_cap, t - p_tokens);
         wait := 0;
       end if;
       update ${s}.rate_budgets
          set requests = coalesce(r, b.requests), tokens = coalesce(t, b.tokens), updated_at = at
        where name = p_name;
       return wait;
     end
     $fn$`,
  );
}
