import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe } from "vitest";
import { ROOT } from "./cli.js";

/**
 * The whole development data (`../shared/data`, beside the checkout; `BITEXT_DEV_DATA` names another folder).
 * A user's clone does not have it: the evaluations over all of it skip there, with one line saying what is
 * missing. CI runs them with the data beside the clone and `BITEXT_REQUIRE_DEV_DATA=1`, where a missing folder
 * is an error rather than a skip. Tests of particular pages read copies in test/fixtures/real instead.
 */
export const DEV_DATA = process.env.BITEXT_DEV_DATA ?? join(ROOT, "..", "shared", "data");

const present = existsSync(join(DEV_DATA, "serps"));
let told = false;

if (!present && process.env.BITEXT_REQUIRE_DEV_DATA === "1") {
  throw new Error(`BITEXT_REQUIRE_DEV_DATA=1 but the development data is not at ${DEV_DATA}`);
}

/** `describe` for a suite over the whole development data: skipped, with one line, when the data is absent. */
export function describeDevData(title: string, body: () => void): void {
  if (!present && !told) {
    told = true;
    console.warn(`skipped: "${title}" and the other evaluations over the development data need ${DEV_DATA} (absent)`);
  }
  describe.skipIf(!present)(title, body);
}
