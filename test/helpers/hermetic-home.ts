import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Every test file runs with its own empty bitext home (BITEXT_HOME), so a model, wrapper or lexicon the
 * developer made in their own user data folder never changes what a test sees, and no test writes there.
 * Child processes (runCli) inherit it. Tests of the home itself unset it.
 */
process.env.BITEXT_HOME = mkdtempSync(join(tmpdir(), "bitext-test-home-"));
