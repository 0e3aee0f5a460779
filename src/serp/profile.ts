import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where per-engine browser profiles (cookies, local storage: a consent once given, a session) live
 * between runs. One small function so it can later follow the project's user-data folder resolution:
 * `$BITEXT_HOME/profiles`, else `$XDG_DATA_HOME/bitext/profiles`, else `~/.local/share/bitext/profiles`.
 * Never inside the installation (which is read-only).
 */
export function defaultProfileDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BITEXT_HOME) return join(env.BITEXT_HOME, "profiles");
  const data = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(data, "bitext", "profiles");
}

/** The file holding one engine's saved browser state inside a profile folder. */
export function engineStateFile(profileDir: string, engine: string): string {
  return join(profileDir, `${engine.replace(/[^\w.-]/g, "_")}.json`);
}
