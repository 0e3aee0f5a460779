#!/usr/bin/env node
import { runBitext } from "./program.js";
import { handleClosedPipes } from "./stream.js";

handleClosedPipes();
process.exitCode = await runBitext(process.argv.slice(2));
