// Registers conformance-node20-hooks.mjs before the conformance suite's CLI loads (node --import this).
import { register } from "node:module";

register("./conformance-node20-hooks.mjs", import.meta.url);
