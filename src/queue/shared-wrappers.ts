import type { EngineWrappers, WrapperRegistry } from "../serp/index.js";
import { latestWrapper, type StoredWrapper, type Store, saveWrapper } from "../store/index.js";
import { MAX_PREVIOUS, wrapperSchema } from "../wrapper/index.js";

/**
 * The engines' wrappers as the workers of a distributed run share them: versions in the store, each
 * stored once (compare-and-set: of two workers re-learning from the same version, one wins and the
 * other takes the winner's), and before each page a worker adopts any newer version another worker
 * stored. So a layout change is learned by one worker and reaches the others, and no two wrappers
 * fight. Nothing is written to wrapper files: the store is the one place.
 */
export class StoreWrappers implements WrapperRegistry {
  /** The version of each engine's wrapper in use here (0: none stored yet). */
  private readonly versions = new Map<string, number>();

  constructor(private readonly store: Store) {}

  async refresh(w: EngineWrappers): Promise<void> {
    const latest = await latestWrapper(this.store, w.setup.name);
    if (latest === null) {
      if (w.wrapper) await this.publish(w);
    } else if (latest.version > this.version(w)) {
      this.adopt(w, latest);
    }
  }

  async learned(w: EngineWrappers): Promise<void> {
    if (w.wrapper) await this.publish(w);
  }

  /** The store version of each engine's wrapper this registry used last. */
  get used(): Record<string, number> {
    return Object.fromEntries(this.versions);
  }

  private version(w: EngineWrappers): number {
    return this.versions.get(w.setup.name) ?? 0;
  }

  private async publish(w: EngineWrappers): Promise<void> {
    const r = await saveWrapper(this.store, w.setup.name, JSON.stringify(w.wrapper), this.version(w));
    if (r.won) this.versions.set(w.setup.name, r.version);
    else this.adopt(w, r.latest);
  }

  private adopt(w: EngineWrappers, latest: StoredWrapper): void {
    const wrapper = wrapperSchema.parse(JSON.parse(latest.json));
    if (w.wrapper) w.earlier = [w.wrapper, ...w.earlier.filter((x) => x !== w.wrapper)].slice(0, MAX_PREVIOUS);
    w.wrapper = wrapper;
    this.versions.set(w.setup.name, latest.version);
  }
}
