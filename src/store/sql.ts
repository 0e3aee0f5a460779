/**
 * The SQL the store's accessors need, behind one asynchronous interface with two implementations: SQLite
 * (better-sqlite3, the zero-setup default) and PostgreSQL (node-postgres with a pool, for many machines).
 *
 * Statements are written once, as `sql` tagged templates: every `${value}` becomes a parameter, which each
 * backend spells its own way (`?` or `$n`) when the statement is rendered. Nothing is rewritten; where the
 * backends truly differ, the accessor writes both statements side by side (`driver.backend`).
 */

/** A statement (or a fragment of one) and its parameters, in order. */
export class SqlQuery {
  constructor(
    /** The text around the parameters: `parts.length === values.length + 1`. */
    readonly parts: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/**
 * A statement: `sql\`SELECT * FROM runs WHERE id = ${id}\``. A value that is itself a `SqlQuery` (another
 * `sql` fragment, `raw`, `join`) is spliced in with its own parameters.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  const parts: string[] = [strings[0]!];
  const out: unknown[] = [];
  values.forEach((v, i) => {
    const next = strings[i + 1]!;
    if (v instanceof SqlQuery) {
      parts[parts.length - 1] += v.parts[0]!;
      for (let k = 0; k < v.values.length; k++) {
        out.push(v.values[k]);
        parts.push(v.parts[k + 1]!);
      }
      parts[parts.length - 1] += next;
    } else {
      out.push(v);
      parts.push(next);
    }
  });
  return new SqlQuery(parts, out);
}

/** Text put in as is: only for names and numbers the code itself made, never for input. */
export function raw(text: string): SqlQuery {
  return new SqlQuery([text], []);
}

/** Fragments joined by `separator` (e.g. the conditions of a WHERE, with " AND "). */
export function join(fragments: readonly SqlQuery[], separator: string): SqlQuery {
  if (fragments.length === 0) return raw("");
  return fragments.reduce((acc, f) => sql`${acc}${raw(separator)}${f}`);
}

/** The statement's text with each backend's placeholders. */
export function render(query: SqlQuery, backend: Backend): string {
  if (backend === "sqlite") return query.parts.join("?");
  return query.parts.reduce((text, part, i) => `${text}$${i}${part}`);
}

export type Backend = "sqlite" | "postgres";

export interface TransactionOptions {
  /**
   * Serialise this transaction against every other one given the same key, on any connection: a
   * check-then-insert (only one harvest run at a time) cannot be raced. SQLite's write transactions are
   * already serialised (IMMEDIATE); PostgreSQL holds an advisory lock from before BEGIN to after COMMIT.
   */
  exclusiveKey?: string;
}

export interface SqlDriver {
  readonly backend: Backend;
  /** False once closed. */
  readonly open: boolean;
  /** Opened for reading only. */
  readonly readonly: boolean;
  /** Run a statement; `changes`: rows inserted, updated or deleted. */
  run(query: SqlQuery): Promise<{ changes: number }>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(query: SqlQuery): Promise<T | undefined>;
  all<T = Record<string, unknown>>(query: SqlQuery): Promise<T[]>;
  /** Rows a batch at a time, without holding them all in memory (PostgreSQL: a cursor). */
  iterate<T = Record<string, unknown>>(query: SqlQuery): AsyncIterable<T>;
  /**
   * Run `fn` in one transaction (a write transaction from the start, so it cannot fail half-way on a lock):
   * committed when its promise resolves, rolled back when it rejects. Every statement of the driver issued
   * while `fn` runs (in its async context: the accessors need no parameter for it) belongs to the
   * transaction; statements of other contexts never interleave with it. Nested calls are savepoints.
   */
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Run statements without parameters (DDL, migrations). */
  exec(text: string): Promise<void>;
  /** The number of migrations applied to this database. */
  schemaVersion(): Promise<number>;
  setSchemaVersion(version: number): Promise<void>;
  close(): Promise<void>;
}
