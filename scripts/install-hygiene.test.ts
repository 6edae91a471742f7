import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

// A fresh `npm install` should print nothing that comes from this project: no unknown settings in .npmrc, no
// package that refuses the Node version `engines` promises, no install script left unreviewed.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
const installed = Object.entries(lock.packages as Record<string, { engines?: { node?: string }; hasInstallScript?: boolean; optional?: boolean }>)
  .filter(([location]) => location.includes("node_modules/"))
  .map(([location, entry]) => ({ name: location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length), location, ...entry }));

describe("npm install", () => {
  it("installs only packages that run on the oldest Node that `engines` accepts", () => {
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    const refusing = installed.filter((entry) => entry.engines?.node && !entry.optional && !semver.satisfies(oldest, entry.engines.node));
    expect(refusing.map((entry) => `${entry.location} needs node ${entry.engines!.node}`)).toEqual([]);
  });

  it("has an allowScripts decision for every package with an install script", () => {
    const decided = new Set(Object.keys(manifest.allowScripts ?? {}));
    expect(installed.filter((entry) => entry.hasInstallScript && !decided.has(entry.name)).map((entry) => entry.location)).toEqual([]);
  });

  it("finds no setting in the project's .npmrc that npm does not know", () => {
    const result = spawnSync("npm", ["config", "list", "--location=project"], { cwd: root, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/Unknown project config/);
  });

  it("pins every dependency to an exact, caret or tilde range, so a fresh install cannot jump a major version", () => {
    // Workspace packages (@sage/*) are the project's own and stay on "*".
    const workspaces = (manifest.workspaces as string[]).flatMap((glob) => {
      const parent = glob.replace(/\/\*$/, "");
      return readdirSync(path.join(root, parent)).map((name) => `${parent}/${name}`);
    });
    const loose = ["", ...workspaces]
      .filter((dir) => existsSync(path.join(root, dir, "package.json")))
      .flatMap((dir) => {
        const pkg = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
        return ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"].flatMap((field) =>
          Object.entries((pkg[field] ?? {}) as Record<string, string>)
            .filter(([name, range]) => !name.startsWith("@sage/") && !/^[~^]?\d+\.\d+\.\d+(-[\w.]+)?$/.test(range))
            .map(([name, range]) => `${dir || "."}/package.json ${field} ${name}: ${range}`),
        );
      });
    expect(loose).toEqual([]);
  });
});
