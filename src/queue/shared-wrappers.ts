import type { EngineWrappers } from "../serp/index.js";
import { latestWrapper, type StoredWrapper, type Store, saveWrapper } from "../store/index.js";
import { MAX_PREVIOUS, wrapperSchema } from "../wrapper/index.js";

/**
 * An engine's wrapper as the workers share it, through the store: each version is stored once
 * (compare-and-set: of two workers re-learning from the same version, one wins and the other takes
 * the winner's), and before each page a worker adopts any newer version another worker stored. So a
 * layout change is learned by one worker and reaches the others, and no two wrappers fight.
 */
export class SharedWrapper {
  private version = 0;

  constructor(
    private readonly store: Store,
    private readonly w: EngineWrappers,
  ) {}

  /** Before a page: take a newer stored wrapper; store ours when the store has none yet. */
  async refresh(): Promise<void> {
    const latest = await latestWrapper(this.store, this.w.setup.name);
    if (latest === null) {
      if (this.w.wrapper) await this.publish();
    } else if (latest.version > this.version) {
      this.adopt(latest);
    }
  }

  /** After a page that taught the worker a wrapper: store it as the next version (or take the one stored first). */
  async learned(): Promise<void> {
    if (this.w.wrapper) await this.publish();
  }

  get storedVersion(): number {
    return this.version;
  }

  private async publish(): Promise<void> {
    const r = await saveWrapper(this.store, this.w.setup.name, JSON.stringify(this.w.wrapper), this.version);
    if (r.won) this.version = r.version;
    else this.adopt(r.latest);
  }

  private adopt(latest: StoredWrapper): void {
    const wrapper = wrapperSchema.parse(JSON.parse(latest.json));
    if (this.w.wrapper) this.w.earlier = [this.w.wrapper, ...this.w.earlier.filter((x) => x !== this.w.wrapper)].slice(0, MAX_PREVIOUS);
    this.w.wrapper = wrapper;
    this.version = latest.version;
  }
}
