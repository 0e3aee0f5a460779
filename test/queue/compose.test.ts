import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/cli.js";

/** docker-compose.yml is not run here (no Docker); it must still parse and hold the services the README promises. */

interface Service {
  image?: string;
  command?: string[];
  depends_on?: string[];
  network_mode?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
}

describe("docker-compose.yml", () => {
  const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { merge: true }) as { services: Record<string, Service> };

  it("has Redis, PostgreSQL, the simulator and several workers", () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(["redis", "postgres", "sim", "worker"]));
    expect(compose.services.redis!.image).toMatch(/^redis:/);
    expect(compose.services.postgres!.image).toMatch(/^postgres:/);
    expect(compose.services.worker!.deploy?.replicas).toBeGreaterThan(1);
  });

  it("runs bitext commands that exist, against the compose Redis", () => {
    const worker = compose.services.worker!;
    expect(worker.command!.slice(0, 4)).toEqual(["npx", "tsx", "src/cli/main.ts", "worker"]);
    expect(worker.environment?.BITEXT_QUEUE).toBe("redis://redis:6379");
    // Every worker writes to the PostgreSQL service's database.
    expect(worker.environment?.BITEXT_DB).toMatch(/^postgres:\/\/bitext@postgres:5432\/bitext$/);
    expect(worker.depends_on).toEqual(expect.arrayContaining(["redis", "sim", "postgres"]));
    // The simulator answers on loopback only: the workers share its network namespace.
    expect(worker.network_mode).toBe("service:sim");
    expect(compose.services.sim!.command).toContain("sim");
    expect(compose.services.enqueue!.command).toEqual(expect.arrayContaining(["harvest", "queries/demo.tsv"]));
    expect(compose.services.status!.command).toEqual(expect.arrayContaining(["queue", "status"]));
  });
});
