// Node's fs, plus the globSync of Node 22 the conformance suite imports but its client command never calls.
import fs from "node:fs";

export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync needs Node 22; the conformance suite's tier-check command is not run by SAGE's tests");
}
