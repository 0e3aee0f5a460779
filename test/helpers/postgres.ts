import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import pg from "pg";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A private PostgreSQL cluster for tests: initdb'd in a temporary folder, listening on 127.0.0.1 on a free
 * port (its socket in the same folder), stopped and deleted by `stop()`. PostgreSQL refuses to run as root:
 * as root, the cluster belongs to the `postgres` user and its programs run through `runuser`.
 * Durability is off (fsync), as a test cluster is thrown away.
 */

/** The server binaries: $BITEXT_TEST_PG_BIN, else Debian's newest /usr/lib/postgresql/<version>/bin. */
const BIN = process.env.BITEXT_TEST_PG_BIN ?? debianBin();

function debianBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? "15";
  return join(root, newest, "bin");
}

export interface PostgresCluster {
  /** The URL of the cluster's `postgres` database. */
  readonly url: string;
  /** A new, empty database; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stop the server and delete its folder. */
  stop(): void;
}

/** Why the PostgreSQL tests cannot run here (null: they can). */
export function postgresUnavailable(): string | null {
  for (const tool of ["initdb", "pg_ctl", "postgres"]) {
    if (!existsSync(join(BIN, tool)))
      return `PostgreSQL server binaries not found in ${BIN} (apt-get install postgresql; or set BITEXT_TEST_PG_BIN)`;
  }
  if (isRoot() && !existsSync("/usr/sbin/runuser") && !existsSync("/sbin/runuser"))
    return "running as root without runuser (PostgreSQL refuses root)";
  if (isRoot() && postgresUid() === null) return "running as root and there is no postgres user to run the server as";
  return null;
}

/** Say once, on stderr, why the PostgreSQL tests are skipped. */
export function reportSkip(what: string): string | null {
  const why = postgresUnavailable();
  if (why) process.stderr.write(`skipping ${what} on PostgreSQL: ${why}\n`);
  return why;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-pg-"));
  const data = join(dir, "data");
  const uid = isRoot() ? postgresUid() : null;
  if (uid !== null) {
    chownSync(dir, uid.uid, uid.gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = uid !== null ? ["runuser", ["-u", "postgres", "--", join(BIN, tool), ...args]] : [join(BIN, tool), args];
    return execFileSync(cmd, argv, { stdio: ["ignore", "pipe", "pipe"], cwd: dir, encoding: "utf8" });
  };
  try {
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]);
    const port = await freePort();
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      "start",
    ]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let databases = 0;
    return {
      url,
      async createDatabase() {
        const name = `t${++databases}`;
        await adminQuery(url, `CREATE DATABASE ${name}`);
        return `postgres://postgres@127.0.0.1:${port}/${name}`;
      },
      stop() {
        try {
          run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as { stderr?: string; message: string };
    throw new Error(`cannot start a test PostgreSQL cluster: ${e.stderr?.trim() || e.message}`);
  }
}

/** Run statements on a fresh connection (database management, or looking at a store from outside). */
export async function adminQuery(url: string, sql: string, values?: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function postgresUid(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A store backend the store tests run on: `location()` gives a new, empty store's location each time. */
export interface StoreBackend {
  name: "SQLite" | "PostgreSQL";
  /** Why this backend's tests are skipped here (null: they run). */
  skip: string | null;
  location(): Promise<string>;
}

/**
 * Both backends, for `describe.each`: SQLite files in a temporary folder, and databases of one private
 * PostgreSQL cluster started before the file's tests and stopped after them (with vitest hooks registered
 * here, so call this at the top level of a test file). Tests on PostgreSQL skip where it cannot run.
 */
export function storeBackends(hooks: {
  beforeAll(fn: () => unknown, timeout?: number): void;
  afterAll(fn: () => unknown): void;
}): StoreBackend[] {
  const skip = reportSkip("these store tests");
  let cluster: PostgresCluster | null = null;
  let dir: string | null = null;
  let files = 0;
  hooks.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bitext-store-"));
    if (!skip) cluster = await startPostgres();
  }, 120_000);
  hooks.afterAll(() => {
    cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return [
    { name: "SQLite", skip: null, location: async () => join(dir!, `s${++files}`, "bitext.db") },
    {
      name: "PostgreSQL",
      skip,
      location: async () => {
        if (!cluster) throw new Error("the test PostgreSQL cluster is not running");
        return cluster.createDatabase();
      },
    },
  ];
}
