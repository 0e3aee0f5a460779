import { join } from "node:path";
import { currentHome } from "../config/workspace.js";

/**
 * Where per-engine browser profiles (cookies, local storage: a consent once given, a session) live
 * between runs: `profiles/` in the user's home (the workspace, `--home`/`BITEXT_HOME`, else the user data
 * folder — `src/config/workspace.ts`). Never inside the installation (which is read-only).
 */
export function defaultProfileDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(currentHome(process.cwd(), env).dir, "profiles");
}

/** The file holding one engine's saved browser state inside a profile folder. */
export function engineStateFile(profileDir: string, engine: string): string {
  return join(profileDir, `${engine.replace(/[^\w.-]/g, "_")}.json`);
}
