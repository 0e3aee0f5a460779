/** The local engine simulator (tests, benchmarks and `bitext demo`). */
export { type PageKind, type SimPage, type SimPair, SimCollection } from "./collection.js";
export { SIM_ENGINES, type SimEngineSpec, simEngineDefinition } from "./engines.js";
export { FAULT_KINDS, type FaultKind, type FaultRule, faultsFor, parseFaults } from "./faults.js";
export {
  defaultSimPairs,
  type Simulator,
  type SimulatorEngine,
  type SimulatorOptions,
  type SimRequestLog,
  startSimulator,
} from "./server.js";
export { DEMO_FAULTS, DEMO_STEPS, type DemoHooks, type DemoOptions, defaultDemoOptions, runDemo } from "./demo.js";
