import type { Wrapper } from "../wrapper/index.js";
import { type EngineSetup, saveWrapper } from "./engine-files.js";

/** An engine's wrappers as the run goes: the current one and those it replaced, newest first. */
export interface EngineWrappers {
  setup: EngineSetup;
  wrapper: Wrapper | null;
  earlier: Wrapper[];
}

/**
 * Where a harvest keeps the wrappers its pages teach: one place per kind of run. A local run writes
 * them to the engine's wrapper file (`FileWrappers`); the workers of a distributed run share them as
 * versions in the store (`queue/shared-wrappers.ts`). The page runner only says "learned".
 */
export interface WrapperRegistry {
  /** Before a page: take up a newer wrapper kept elsewhere (another worker's), if any. */
  refresh(w: EngineWrappers): Promise<void>;
  /** A page taught the engine's current wrapper: keep it. */
  learned(w: EngineWrappers): Promise<void>;
}

/** A local run's wrappers: each learned one written to its engine's file (the old one kept in `previous`). */
export class FileWrappers implements WrapperRegistry {
  async refresh(): Promise<void> {}

  async learned(w: EngineWrappers): Promise<void> {
    if (w.wrapper) saveWrapper(w.setup.file, w.wrapper);
  }
}
