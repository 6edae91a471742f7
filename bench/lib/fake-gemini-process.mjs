import { fork } from "node:child_process";

/**
 * The fake Gemini (packages/testkit) in a process of its own, as fake-embedder's: the model is another machine, so
 * its work (reading each request, checking it against the response schema, answering) is not the bench's to carry.
 * `structured()` answers the structured-output requests seen since the last call; `firstStructured()` the same count
 * with the path and body of the first of them.
 */
export async function startFakeGeminiProcess() {
  const child = fork(new URL("./fake-gemini-child.ts", import.meta.url), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { baseUrl } = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the fake Gemini exited ${code}`)));
  });
  const ask = (request) =>
    new Promise((resolve) => {
      child.once("message", resolve);
      child.send(request);
    });
  return {
    baseUrl,
    script: (...replies) => ask({ script: replies }),
    structured: async () => (await ask("structured")).structured,
    firstStructured: () => ask("structured"),
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("close");
      await exited;
    },
  };
}
