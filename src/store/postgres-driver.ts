import { createRequire } from "node:module";
import { UserError } from "../errors.js";
import { toPostgres } from "./dialect.js";
import { EXIT_TEMPFAIL } from "./errors.js";
import { shownUrl } from "./location.js";
import type { SqlDriver, SqlParams, SqlStatement, TransactionOptions } from "./sql.js";

/** The parts of pg-native (and its libpq binding) this driver uses. */
interface PgClient {
  connectSync(params: string): void;
  querySync(text: string, values?: unknown[]): Record<string, unknown>[];
  prepareSync(name: string, text: string, nParams: number): void;
  executeSync(name: string, values: unknown[]): Record<string, unknown>[];
  end(): void;
  pq: {
    transactionStatus(): number;
    resultErrorFields(): { sqlState?: string } | undefined | null;
    cmdTuples(): string;
  };
}
type PgClientClass = new (config: { types: unknown }) => PgClient;

/** libpq's PQTRANS_UNKNOWN: the connection is bad (the server went away or it was dropped). */
const CONNECTION_BAD = 4;
/** Prepared statements kept per connection. */
const MAX_PREPARED = 500;
/** Rows a cursor fetches per round trip when iterating. */
const CURSOR_BATCH = 500;
/** Whole transactions retried on a deadlock or serialisation failure (concurrent workers). */
const MAX_ATTEMPTS = 5;
const RETRYABLE = new Set(["40P01", "40001"]);

/**
 * A synchronous SQL driver over one PostgreSQL connection (pg-native, loaded only when a PostgreSQL store
 * is opened, so the SQLite default needs nothing). Statements are prepared once per connection; a dropped
 * connection fails the operation in progress, and the next one reconnects.
 */
export function postgresDriver(url: string, options: { readonly?: boolean } = {}): SqlDriver {
  const conn = new PostgresConnection(url, options.readonly ?? false);
  const driver: SqlDriver = {
    backend: "postgres",
    get open() {
      return conn.open;
    },
    readonly: options.readonly ?? false,
    prepare(sql: string): SqlStatement {
      return {
        run: (...params) => {
          conn.execute(sql, params);
          return { changes: conn.changes() };
        },
        get: (...params) => conn.execute(sql, params)[0],
        all: (...params) => conn.execute(sql, params),
        iterate: (...params) => conn.iterate(sql, params),
      };
    },
    transaction<T>(fn: () => T, options: TransactionOptions = {}): T {
      return conn.depth > 0 ? conn.nestedTransaction(fn) : conn.outerTransaction(fn, options);
    },
    exec(sql: string): void {
      conn.ready();
      conn.query(sql);
    },
    schemaVersion: () => conn.schemaVersion(),
    setSchemaVersion: (version: number) => conn.setSchemaVersion(version),
    close(): void {
      conn.close();
    },
  };
  return driver;
}

/** One connection to the store, with its prepared statements and transaction depth; reconnects when it went bad. */
class PostgresConnection {
  private readonly shown: string;
  private readonly Client: PgClientClass;
  private readonly types: unknown;
  private client: PgClient;
  private prepared = new Map<string, string>();
  depth = 0;
  private cursors = 0;
  open = true;

  constructor(
    private readonly url: string,
    private readonly readonly: boolean,
  ) {
    this.shown = shownUrl(url);
    const { Client, types } = loadPgNative(this.shown);
    this.Client = Client;
    this.types = types;
    this.client = this.connect();
  }

  private connect(): PgClient {
    const c = new this.Client({ types: this.types });
    try {
      c.connectSync(this.url);
      live.add(c);
      if (this.readonly) c.querySync("SET default_transaction_read_only = on");
      c.querySync("SET client_min_messages = warning");
    } catch (err) {
      endClient(c);
      throw new UserError(`${this.shown}: cannot connect to the PostgreSQL store (${firstLine(err)})`, { exitCode: EXIT_TEMPFAIL });
    }
    return c;
  }

  /** Before an operation outside a transaction: replace a connection that went bad. */
  ready(): void {
    if (!this.open) throw new Error(`${this.shown}: the store is closed`);
    if (this.depth === 0 && this.client.pq.transactionStatus() === CONNECTION_BAD) {
      endClient(this.client);
      this.client = this.connect();
      this.prepared = new Map();
    }
  }

  query(text: string, values?: unknown[]): Record<string, unknown>[] {
    try {
      return values ? this.client.querySync(text, values) : this.client.querySync(text);
    } catch (err) {
      throw pgError(this.client, err);
    }
  }

  /** Rows changed by the last statement. */
  changes(): number {
    return Number.parseInt(this.client.pq.cmdTuples(), 10) || 0;
  }

  execute(sql: string, params: SqlParams): Record<string, unknown>[] {
    this.ready();
    const t = toPostgres(sql);
    const values = bind(t.names, t.count, params, sql);
    try {
      return this.client.executeSync(this.statement(sql, t.text, t.count), values);
    } catch (err) {
      throw pgError(this.client, err);
    }
  }

  /** The name of the statement prepared for `sql` on this connection, prepared now if need be. */
  private statement(sql: string, text: string, count: number): string {
    let name = this.prepared.get(sql);
    if (name === undefined) {
      // Statements with a literal LIMIT vary without end: start afresh rather than grow without bound.
      if (this.prepared.size >= MAX_PREPARED) {
        this.client.querySync("DEALLOCATE ALL");
        this.prepared.clear();
      }
      name = `bitext_${this.prepared.size + 1}`;
      this.client.prepareSync(name, text, count);
      this.prepared.set(sql, name);
    }
    return name;
  }

  *iterate(sql: string, params: SqlParams): Generator<unknown> {
    this.ready();
    const t = toPostgres(sql);
    const values = bind(t.names, t.count, params, sql);
    const own = this.depth === 0;
    const cursor = `bitext_cursor_${++this.cursors}`;
    if (own) this.query("BEGIN");
    this.depth++;
    let finished = false;
    try {
      this.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${t.text}`, values);
      for (;;) {
        const rows = this.query(`FETCH ${CURSOR_BATCH} FROM ${cursor}`);
        yield* rows;
        if (rows.length < CURSOR_BATCH) break;
      }
      this.query(`CLOSE ${cursor}`);
      if (own) this.query("COMMIT");
      finished = true;
    } finally {
      this.depth--;
      // Stopped early (break, an error): close the cursor, end the read transaction it lived in.
      if (!finished) quietly(() => (own ? this.query("ROLLBACK") : this.query(`CLOSE ${cursor}`)));
    }
  }

  /** A transaction inside another: a savepoint. */
  nestedTransaction<T>(fn: () => T): T {
    const savepoint = `bitext_sp_${this.depth}`;
    this.query(`SAVEPOINT ${savepoint}`);
    this.depth++;
    try {
      const result = fn();
      this.query(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (err) {
      quietly(() => this.query(`ROLLBACK TO SAVEPOINT ${savepoint}`));
      throw err;
    } finally {
      this.depth--;
    }
  }

  outerTransaction<T>(fn: () => T, options: TransactionOptions): T {
    for (let attempt = 1; ; attempt++) {
      this.ready();
      // The lock is the session's, taken before BEGIN: a transaction begun before another's commit could
      // still see the catalog as it was (a table just created missing), so it begins once the lock is held.
      const key = options.exclusiveKey ? [options.exclusiveKey] : null;
      if (key) this.query("SELECT pg_advisory_lock(hashtext($1))", key);
      try {
        this.query("BEGIN");
        this.depth = 1;
        const result = fn();
        this.query("COMMIT");
        return result;
      } catch (err) {
        quietly(() => this.query("ROLLBACK"));
        // Two workers writing the same rows in another order: PostgreSQL aborts one; run it again.
        if (attempt < MAX_ATTEMPTS && RETRYABLE.has((err as { code?: string }).code ?? "")) continue;
        throw err;
      } finally {
        this.depth = 0;
        if (key) quietly(() => this.query("SELECT pg_advisory_unlock(hashtext($1))", key));
      }
    }
  }

  schemaVersion(): number {
    this.ready();
    const exists = this.query("SELECT to_regclass('bitext_schema') IS NOT NULL AS e")[0]!.e === true;
    if (!exists) return 0;
    return Number(this.query("SELECT coalesce(max(version), 0) AS v FROM bitext_schema")[0]!.v);
  }

  setSchemaVersion(version: number): void {
    // One row per migration applied, with when (the SQLite store keeps the number in PRAGMA user_version).
    this.query("CREATE TABLE IF NOT EXISTS bitext_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    this.query(
      "INSERT INTO bitext_schema (version, applied_at) SELECT v, $2 FROM generate_series((SELECT coalesce(max(version), 0) + 1 FROM bitext_schema), $1::int) v",
      [String(version), new Date().toISOString()],
    );
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    endClient(this.client);
  }
}

/**
 * Connected clients, and ended ones until libuv has closed their socket watcher: libpq's binding embeds
 * the watcher in the client, so a client garbage-collected while connected or before the close completes
 * corrupts the event loop (a crash at exit). A store dropped without close leaks its connection instead.
 */
const live = new Set<PgClient>();

function endClient(c: PgClient): void {
  quietly(() => c.end());
  live.add(c);
  setTimeout(() => live.delete(c), 100).unref();
}

/** pg-native and the type parsers that give rows the shapes SQLite gives them. */
function loadPgNative(shown: string): { Client: PgClientClass; types: unknown } {
  const require = createRequire(import.meta.url);
  let Client: PgClientClass;
  let base: { getTypeParser(oid: number, format?: string): (text: string) => unknown };
  try {
    Client = require("pg-native") as PgClientClass;
    base = createRequire(require.resolve("pg-native"))("pg-types");
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND";
    throw new UserError(
      `${shown}: a PostgreSQL store needs the optional package pg-native, which ${missing ? "is not installed" : `does not load (${firstLine(err)})`}: ` +
        "install it with npm install pg-native (building it needs libpq-dev), or use a SQLite store file",
    );
  }
  const asNumber = (text: string) => Number(text);
  const asText = (text: string) => text;
  const types = {
    getTypeParser(oid: number, format?: string) {
      switch (oid) {
        case 20: // int8: ids and counts, well within 2^53
        case 1700: // numeric: sums
          return asNumber;
        case 114: // json, jsonb: kept as text, as SQLite's json functions give it
        case 3802:
          return asText;
        default:
          return base.getTypeParser(oid, format);
      }
    },
  };
  return { Client, types };
}

/** Parameters as libpq takes them: text, or null. Bytes go as bytea's hex form. */
function bind(names: string[] | null, count: number, params: SqlParams, sql: string): unknown[] {
  let values: unknown[];
  if (names) {
    const named = (params[0] ?? {}) as Record<string, unknown>;
    values = names.map((n) => {
      if (!(n in named)) throw new Error(`missing named parameter @${n} for: ${sql}`);
      return named[n];
    });
  } else values = params;
  if (values.length !== count) throw new RangeError(`expected ${count} parameter(s), got ${values.length}, for: ${sql}`);
  return values.map(toText);
}

function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
  if (typeof v === "boolean") return v ? "t" : "f";
  return String(v);
}

/** pg-native's error with PostgreSQL's SQLSTATE as `code` (08006 when the connection broke). */
function pgError(client: PgClient, err: unknown): Error {
  const fields = client.pq.resultErrorFields();
  const code = fields?.sqlState ?? (client.pq.transactionStatus() === CONNECTION_BAD ? "08006" : undefined);
  const e = new Error(firstLine(err));
  e.name = "PostgresError";
  if (code) Object.assign(e, { code });
  return e;
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message
    .replace(/^(ERROR|FATAL):\s+/, "")
    .split("\n")[0]!
    .trim();
}

function quietly(fn: () => unknown): void {
  try {
    fn();
  } catch {
    // cleaning up after an error that is already being reported
  }
}
